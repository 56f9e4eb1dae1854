package io.rdmareactive.internal.protocol;

/**
 * Where things live in a connection's two registered regions. The remote region is the receive region a handshake
 * describes, laid out as {@link HandshakeFlyweight} draws it (its offsets are the ones here); the local region mirrors
 * it, so that a send ring and its staging line sit at the same offsets as the peer's receive ring and credit line.
 *
 * <pre>
 *  remote region (LOCAL_WRITE | REMOTE_WRITE: the peer writes here)
 *  +----------------------+----------------------+-----+----------------------+-----------+-----------+---
 *  | receive ring 0       | receive ring 1       | ... | receive ring S-1     | line 0    | line 1    | ...
 *  | (control stream)     |                      |     |                      | 64 bytes  | 64 bytes  |
 *  +----------------------+----------------------+-----+----------------------+-----------+-----------+---
 *  line s, offset 0: the peer's consumed position of this side's send ring s (its credit to us)
 *  line 0, offset 16: receives the peer has posted for our WRITE WITH IMMEDIATEs, in total (receive grant)
 *  line 0, offset 32: the peer's goodbye, 1 once it closes on purpose (each of these is a CheckedWord)
 *  line s, offset 48: with direct peer access, how far the peer published frames into receive ring s (a long)
 *  line 0, offset 48: with direct peer access, the look-flag: 1 when the peer wrote since this side looked
 *  line 1, offsets 16-35: with direct peer access, this side's doorbell and the peer's acknowledgement of it
 *
 *  local region (LOCAL_WRITE only: the adapter reads it)
 *  +----------------------+-----+----------------------+-----------+-----+
 *  | send ring 0          | ... | send ring S-1        | staging 0 | ... |   staging s: the value RDMA-written
 *  +----------------------+-----+----------------------+-----------+-----+   into the peer's line s
 * </pre>
 */
final class ConnectionLayout {

    static final int LINE = HandshakeFlyweight.CREDIT_LINE_LENGTH;
    static final int CONSUMED_OFFSET = HandshakeFlyweight.CREDIT_WORD_OFFSET;
    static final int GRANT_OFFSET = HandshakeFlyweight.RECEIVE_GRANT_OFFSET;
    static final int GOODBYE_OFFSET = HandshakeFlyweight.GOODBYE_OFFSET;
    static final int PUBLISHED_OFFSET = HandshakeFlyweight.PUBLISHED_OFFSET;
    /** Line 0's published word (the control stream is never published): the doorbell of direct peer access. */
    static final int LOOK_FLAG_OFFSET = HandshakeFlyweight.LOOK_FLAG_OFFSET;

    /**
     * Line 1, offsets 16 to 35, with direct peer access: this side's doorbell, which the peer rings to wake a parked
     * connection ({@link Doorbells}): the page's address (long) and key (int), the doorbell's number plus 1 (int, written
     * last; 0 while there is none), and the peer's acknowledgement (int, written by the peer once it mapped the page:
     * the number plus 1). This side parks the connection only once acknowledged.
     */
    static final int DOORBELL_ADDRESS_OFFSET = LINE + 16;
    static final int DOORBELL_KEY_OFFSET = LINE + 24;
    static final int DOORBELL_NUMBER_OFFSET = LINE + 28;
    static final int DOORBELL_ACK_OFFSET = LINE + 32;

    private ConnectionLayout() {
    }

    static long ringOffset(final int stream, final int ringCapacity) {
        return HandshakeFlyweight.ringOffset(stream, ringCapacity);
    }

    static long lineOffset(final int stream, final int maxStreams, final int ringCapacity) {
        return HandshakeFlyweight.creditOffset(stream, maxStreams, ringCapacity);
    }
}
