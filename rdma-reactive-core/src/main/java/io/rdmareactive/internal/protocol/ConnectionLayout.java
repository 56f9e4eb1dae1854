package io.rdmareactive.internal.protocol;

/**
 * Where things live in a connection's two registered regions.
 *
 * <pre>
 *  remote region (LOCAL_WRITE | REMOTE_WRITE: the peer writes here)
 *  +----------------------+----------------------+-----+----------------------+-----------+-----------+---
 *  | receive ring 0       | receive ring 1       | ... | receive ring S-1     | line 0    | line 1    | ...
 *  | (control stream)     |                      |     |                      | 64 bytes  | 64 bytes  |
 *  +----------------------+----------------------+-----+----------------------+-----------+-----------+---
 *  line s, offset 0: the peer's consumed position of this side's send ring s (its credit to us)
 *  line 0, offset 8: receives the peer has posted for our WRITE WITH IMMEDIATEs, in total (receive grant)
 *
 *  local region (LOCAL_WRITE only: the adapter reads it)
 *  +----------------------+-----+----------------------+-----------+-----+
 *  | send ring 0          | ... | send ring S-1        | staging 0 | ... |   staging s: the value RDMA-written
 *  +----------------------+-----+----------------------+-----------+-----+   into the peer's line s
 * </pre>
 */
final class ConnectionLayout {

    static final int LINE = 64;
    static final int CONSUMED_OFFSET = 0;
    static final int GRANT_OFFSET = 8;

    private ConnectionLayout() {
    }

    static long ringOffset(final int stream, final int ringCapacity) {
        return (long) stream * ringCapacity;
    }

    static long lineOffset(final int stream, final int maxStreams, final int ringCapacity) {
        return (long) maxStreams * ringCapacity + (long) stream * LINE;
    }
}
