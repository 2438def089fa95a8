package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Toro's tests 1-3 (ch. 4, table 4.3): star states to the five digits he tabulates, and the structure. */
class ExactRiemannTest {
    private static final double GAMMA = 1.4;

    private static ExactRiemann solve(final double rl, final double ul, final double pl, final double rr,
        final double ur, final double pr) {
        return new ExactRiemann(new ExactRiemann.State(rl, ul, pl), new ExactRiemann.State(rr, ur, pr), GAMMA);
    }

    @Test
    void shouldSolveSod() {
        final ExactRiemann r = solve(1, 0, 1, 0.125, 0, 0.1);
        assertEquals(0.30313, r.pStar(), 5e-6);
        assertEquals(0.92745, r.uStar(), 5e-6);
        assertEquals(0.42632, r.rhoStarLeft(), 5e-6);
        assertEquals(0.26557, r.rhoStarRight(), 5e-6);
        // Structure at t = 0.2 around x0 = 0.5: rarefaction, contact at 0.5 + 0.2 u*, shock near 0.85.
        final double shock = 0.5 + 0.2 * r.rightWaveSpeed();
        assertEquals(0.8504, shock, 1e-3);
        assertEquals(0.125, r.sample((shock + 0.001 - 0.5) / 0.2).rho(), 0.0, "ahead of the shock");
        assertEquals(r.rhoStarRight(), r.sample((shock - 0.001 - 0.5) / 0.2).rho(), 0.0, "behind it");
        assertEquals(1.0, r.sample(-10).rho(), 0.0);
        final ExactRiemann.State fan = r.sample(-0.5);
        assertTrue(fan.rho() < 1 && fan.rho() > r.rhoStarLeft(), "inside the rarefaction: " + fan);
        // The rarefaction is continuous at its tail.
        final double tail = r.uStar() - Math.sqrt(GAMMA * r.pStar() / r.rhoStarLeft());
        assertEquals(r.sample(tail - 1e-9).p(), r.sample(tail + 1e-9).p(), 1e-6);
    }

    @Test
    void shouldSolveTorosTwoRarefactionsAndStrongShockCases() {
        final ExactRiemann two = solve(1, -2, 0.4, 1, 2, 0.4);
        assertEquals(0.00189, two.pStar(), 5e-6);
        assertEquals(0.0, two.uStar(), 1e-12);
        final ExactRiemann strong = solve(1, 0, 1000, 1, 0, 0.01);
        assertEquals(460.894, strong.pStar(), 5e-3);
        assertEquals(19.5975, strong.uStar(), 5e-4);
        assertEquals(0.57506, strong.rhoStarLeft(), 5e-5);
        assertEquals(5.99924, strong.rhoStarRight(), 5e-5);
    }

    @Test
    void shouldRejectBadStatesAndVacuum() {
        assertThrows(IllegalArgumentException.class, () -> solve(0, 0, 1, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> solve(1, 0, -1, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> solve(1, -20, 1, 1, 20, 1));
    }
}
