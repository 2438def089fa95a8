package org.jhpvm.shmem;

/**
 * {@code shmem_team_config_t}: what a team is created with. OpenSHMEM 1.5 defines one setting,
 * {@code num_contexts} (mask bit {@code SHMEM_TEAM_NUM_CONTEXTS}): the number of contexts the program will create
 * from the team. Here it is a cap: while that many contexts of the team are live, {@link ShmemTeam#createCtx} returns
 * null ({@code SHMEM_CTX_INVALID}, not an error, as the specification says of a creation that fails). A team made
 * without a config has {@link #DEFAULT}: 0, no declared count, limited only by the PE's {@link ShmemCtx#MAX_CONTEXTS}.
 *
 * @param numContexts the most live contexts of the team, or 0 for no declared count
 */
public record TeamConfig(int numContexts) {
    /** No declared context count: a config whose mask is 0 in C. */
    public static final TeamConfig DEFAULT = new TeamConfig(0);

    /**
     * Checks the setting.
     *
     * @param numContexts the most live contexts of the team, or 0 for no declared count
     * @throws IllegalArgumentException if {@code numContexts} is negative
     */
    public TeamConfig {
        if (numContexts < 0) {
            throw new IllegalArgumentException("numContexts=" + numContexts + " is negative");
        }
    }
}
