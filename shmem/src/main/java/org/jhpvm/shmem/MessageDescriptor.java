package org.jhpvm.shmem;

/**
 * Layout of SHMEM's FM messages: the FM handler ids, each message's header and the codes it carries. Every field is
 * a little-endian int or long sent with FM's typed pieces; a payload of elements follows the header straight from
 * the user's array (FM's typed gather) and lands straight in the target array (typed scatter).
 *
 * <pre>
 *  H_PUT, H_ACC          0       4       8       12      16      20              28
 *                        +-------+-------+-------+-------+-------+---------------+
 *                        | id    | index | stride| count | block | alpha (H_ACC) |  then count blocks of block
 *                        +-------+-------+-------+-------+-------+---------------+  elements, block starts stride
 *                                                                                   apart from index
 *  H_GET                 +-------+-------+-------+-------+-------+-------+
 *                        | slot  | id    | index | stride| count | block |          answered by H_REPLY
 *                        +-------+-------+-------+-------+-------+-------+
 *  H_REPLY               +-------+-------+-------------------------+
 *                        | slot  | status| data, or value (8 bytes) |  nothing after the status unless STATUS_OK
 *                        +-------+-------+-------------------------+
 *  H_AMO                 +-------+-------+-------+-------+---------------+---------------+
 *                        | op    | id    | index | slot  | a             | b (cswap cond)|  slot -1: no reply
 *                        +-------+-------+-------+-------+---------------+---------------+
 *  H_PUT_SIGNAL          +-------+-------+-------+-------+-------+-------+-------+-------+---------------+
 *                        | id    | index | count | mode  | sigA  | sigB  | sigOp | 0     | signal        |
 *                        +-------+-------+-------+-------+-------+-------+-------+-------+---------------+
 *                        then count elements; id -1: a signal alone. SIG_USER: sigA, sigB are the signal
 *                        object and element; SIG_TEAM: team id, counter, and sigOp the sender's team rank
 *  H_TEAM                +-------+-------+-------+-------+-------+
 *                        | team  |counter| rank  | kind  | count |  then count elements for the team's inbox
 *                        +-------+-------+-------+-------+-------+
 *  H_LOCK                +-------+-------+-------+-------+
 *                        | op    | id    | index | slot  |  answered by H_REPLY when granted or refused
 *                        +-------+-------+-------+-------+
 *  H_QUIET               +-------+
 *                        | slot  |  answered by H_REPLY once every earlier message from the sender was handled
 *                        +-------+
 * </pre>
 *
 * A slot names the requester's outstanding request ({@link OutstandingRequests}); the reply carries it back.
 */
final class MessageDescriptor {
    static final int H_PUT = 101;
    static final int H_PUT_SIGNAL = 102;
    static final int H_GET = 103;
    static final int H_REPLY = 104;
    static final int H_AMO = 105;
    static final int H_ACC = 106;
    static final int H_QUIET = 107;
    static final int H_TEAM = 108;
    static final int H_LOCK = 109;

    /** Header of a put; the block-strided and element-strided forms share it ({@code block == 1}). */
    static final int PUT_HEADER_BYTES = 20;
    /** Header of an accumulate: a put's, then alpha as raw bits of the element type. */
    static final int ACC_HEADER_BYTES = 28;
    static final int GET_BYTES = 24;
    static final int REPLY_HEADER_BYTES = 8;
    /** The value of a reply that carries no data (fetched atomic, lock answer, quiet answer). */
    static final int REPLY_VALUE_BYTES = 8;
    static final int AMO_BYTES = 32;
    static final int PUT_SIGNAL_HEADER_BYTES = 40;
    static final int TEAM_HEADER_BYTES = 20;
    static final int LOCK_BYTES = 16;
    static final int QUIET_BYTES = 4;

    /** Largest payload per message; larger transfers are split (FM lengths are ints). */
    static final int MAX_MESSAGE_BYTES = 1 << 30;

    static final int AMO_FETCH = 0;
    static final int AMO_SET = 1;
    static final int AMO_CSWAP = 2;
    static final int AMO_SWAP = 3;
    static final int AMO_ADD = 4;
    static final int AMO_AND = 5;
    static final int AMO_OR = 6;
    static final int AMO_XOR = 7;

    static final int LOCK_ACQUIRE = 0;
    static final int LOCK_TRY = 1;
    static final int LOCK_RELEASE = 2;

    /** Put with signal: the signal is an element of a symmetric long object. */
    static final int SIG_USER = 0;
    /** Put with signal: the signal counts an arrival in a team's collective state ({@link Teams#arrive}). */
    static final int SIG_TEAM = 1;

    static final int STATUS_OK = 0;
    /** The target found no such live object, or a range outside it: the reply carries nothing more. */
    static final int STATUS_REJECTED = 1;

    private MessageDescriptor() {
    }
}
