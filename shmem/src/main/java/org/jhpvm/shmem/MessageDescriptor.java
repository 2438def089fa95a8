package org.jhpvm.shmem;

/**
 * Layout of SHMEM's messages. Remote memory access travels as NIC messages (FM's {@code beginNicMessage}), whose
 * handlers the target's NIC runs on registered memory, each naming a symmetric object by its id (its registration
 * handle) and key; the collectives' traffic and locks travel as FM messages to host handlers. Every field is a
 * little-endian int or long sent with FM's typed pieces; a payload of elements follows the header straight from the
 * user's array (typed gather) and lands straight in the target array (typed scatter).
 *
 * <pre>
 *  NIC messages (handlers on the target's NIC)
 *  N_PUT, N_ACC          0       4       8       12      16      20      24              32
 *                        +-------+-------+-------+-------+-------+-------+---------------+
 *                        | id    | key   | index | stride| count | block | alpha (N_ACC) |  then count blocks of block
 *                        +-------+-------+-------+-------+-------+-------+---------------+  elements, block starts
 *                                                                                           stride apart from index
 *  N_GET                 | id    | key   | index | stride| count | block |                  reply: the elements
 *  N_AMO                 +-------+-------+-------+-------+---------------+---------------+
 *                        | op    | id    | key   | index | a             | b (cswap cond)|  op | FETCH: reply 8 bytes
 *                        +-------+-------+-------+-------+---------------+---------------+
 *  N_PUT_SIGNAL          +-------+-------+-------+-------+-------+-------+-------+-------+---------------+
 *                        | id    | key   | index | count | sigId | sigKey| sigIdx| sigOp | signal        |  then count
 *                        +-------+-------+-------+-------+-------+-------+-------+-------+---------------+  elements;
 *                                                                                          id -1: a signal alone
 *  N_SEGMENT_AMO         | op    | id    | key   | offset (long) | a (long)      | b (long)      |  reply: old value
 *  N_BATCH               entries back to back, in the order issued (aggregated small puts and non-fetching atomics);
 *                        the first names the object of those after it until the next such entry
 *                        +-------+-------+-------+
 *    an object           | 9     | id    | key   |
 *                        +-------+-------+-------+
 *    a put               |8|count| index |  then count elements (the op in the low 8 bits, count above)
 *                        +-------+-------+---------------+
 *    an atomic           | op    | index | a             |  op: AMO_SET, ADD, AND, OR or XOR
 *                        +-------+-------+---------------+
 *  FM messages (host handlers)
 *  H_PUT_SIGNAL          +-------+-------+-------+-------+-------+-------+-------+-------+---------------+
 *  (collectives)         | id    | index | count | team  |counter| rank  | 0     | 0     | signal        |  then count
 *                        +-------+-------+-------+-------+-------+-------+-------+-------+---------------+  elements
 *  H_TEAM                +-------+-------+-------+-------+-------+
 *                        | team  |counter| rank  | kind  | count |  then count elements for the team's inbox
 *                        +-------+-------+-------+-------+-------+
 *  H_LOCK                +-------+-------+-------+-------+
 *                        | op    | id    | index | slot  |  answered by H_REPLY when granted or refused
 *                        +-------+-------+-------+-------+
 *  H_REPLY               +-------+-------+---------------+
 *                        | slot  | status| value         |  no value unless STATUS_OK
 *                        +-------+-------+---------------+
 * </pre>
 *
 * A slot names the requester's outstanding request ({@link OutstandingRequests}); the reply carries it back.
 */
final class MessageDescriptor {
    static final int H_PUT_SIGNAL = 102;
    static final int H_REPLY = 104;
    static final int H_TEAM = 108;
    static final int H_LOCK = 109;

    /** NIC handler: put. */
    static final int N_PUT = 1;
    /** NIC handler: get. */
    static final int N_GET = 2;
    /** NIC handler: atomic. */
    static final int N_AMO = 3;
    /** NIC handler: accumulate. */
    static final int N_ACC = 4;
    /** NIC handler: put with a user signal. */
    static final int N_PUT_SIGNAL = 5;

    /** NIC handler: a batch of small puts and non-fetching atomics ({@link PutBatch}). */
    static final int N_BATCH = 6;
    /** NIC handler: an atomic on a segment ({@link SymmetricSegment}) of a PE on another host. */
    static final int N_SEGMENT_AMO = 7;
    /** op word, id, key, then offset, operand, compare value (longs). */
    static final int NIC_SEGMENT_AMO_BYTES = 36;

    /** Header of a put entry of a batch; the elements follow. */
    static final int BATCH_PUT_HEADER_BYTES = 8;
    /** An atomic entry of a batch. */
    static final int BATCH_AMO_BYTES = 16;
    /** An entry of a batch naming the object of the entries after it. */
    static final int BATCH_OBJECT_BYTES = 12;
    /** Header of a NIC put; the block-strided and element-strided forms share it ({@code block == 1}). */
    static final int NIC_PUT_HEADER_BYTES = 24;
    /** Header of a NIC accumulate: a put's, then alpha as raw bits of the element type. */
    static final int NIC_ACC_HEADER_BYTES = 32;
    static final int NIC_GET_BYTES = 24;
    static final int NIC_AMO_BYTES = 32;
    static final int NIC_PUT_SIGNAL_HEADER_BYTES = 40;
    static final int REPLY_HEADER_BYTES = 8;
    /** The value of a reply (a lock answer). */
    static final int REPLY_VALUE_BYTES = 8;
    static final int PUT_SIGNAL_HEADER_BYTES = 40;
    static final int TEAM_HEADER_BYTES = 20;
    static final int LOCK_BYTES = 16;


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

    /** Put with signal: the signal is an element of a symmetric long object (a NIC message). */
    static final int SIG_USER = 0;
    /** Put with signal: the signal counts an arrival in a team's collective state ({@link Teams#arrive}); FM. */
    static final int SIG_TEAM = 1;

    static final int STATUS_OK = 0;
    /** The target refused the request: the reply carries nothing more. */
    static final int STATUS_REJECTED = 1;

    private MessageDescriptor() {
    }
}
