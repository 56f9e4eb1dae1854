package io.rdmareactive.internal.protocol;

/**
 * The check, in each duty cycle of one connection, that no consumer found a checked frame rewritten after its check
 * (the peer can rewrite its ring at any time): such a stream was marked, and the connection ends. Loop only; allocates
 * nothing but the reason of an end.
 */
final class CorruptionCheck {

    private final ProtocolConnection connection;
    private final ProtocolStream[] streams;
    /** The watch set's words ({@link WatchSet#active}): the streams of this cycle, the marked ones among them. */
    private final long[] active;

    /** @param streams the connection's streams, filled in before the first duty cycle */
    CorruptionCheck(final ProtocolConnection connection, final ProtocolStream[] streams, final long[] active) {
        this.connection = connection;
        this.streams = streams;
        this.active = active;
    }

    /**
     * A consumer found a checked frame rewritten (its stream was marked): the connection ends. The control stream
     * too, as a corrupted one would stall every stream.
     *
     * @return true if the connection failed
     */
    boolean checkCorruption() {
        if (streams[ProtocolStream.CONTROL_STREAM].receiveRing().isCorrupted()) { // the loop reads it: no mark
            connection.fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " on stream 0"
                + " (a checked frame changed before it was read)");
            return true;
        }
        for (int w = 0; w < active.length; w++) {
            long bits = active[w];
            while (bits != 0) {
                final int s = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                if (streams[s].receiveRing().isCorrupted()) {
                    connection.fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " on stream " + s
                        + " (a checked frame changed before it was read)");
                    return true;
                }
            }
        }
        return false;
    }
}
