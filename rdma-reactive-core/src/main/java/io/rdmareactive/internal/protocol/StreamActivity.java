package io.rdmareactive.internal.protocol;

/**
 * What a connection's duty cycle tells the layer above about its streams, on the connection's event loop.
 * {@link #onFramesArrived} and {@link #onProducerReady} come in the middle of the cycle (while completions are
 * polled): they must only note the stream and return. {@link #onPolled()} comes once the cycle has polled and read
 * its control stream, and at its end: there the layer above drains the streams it noted, running subscribers and
 * handlers on the loop. None of them may throw.
 */
public interface StreamActivity {

    /** Stream {@code stream} has new frames for its consumer. */
    void onFramesArrived(int stream);

    /** Stream {@code stream}'s producer may be able to do more: the peer asked for more, or freed ring space. */
    void onProducerReady(int stream);

    /** The connection ended: {@link ProtocolConnection#error()} says why, or it was closed. */
    void onTerminated();

    /**
     * The duty cycle polled the completions and read the control stream; the streams reported so far may be
     * drained now, before the cycle posts what they commit. Called once more at the end of each duty cycle.
     */
    default void onPolled() {
    }

    /**
     * @return true when the layer above has nothing noted to drain: the loop may park the connection (its next word
     *     from either side wakes it)
     */
    default boolean isIdle() {
        return true;
    }

    /**
     * @return true while a stream is in use: a send runs on it, or a subscriber reads its inbound (the loop waits
     *     longer before it parks such a connection; a snapshot, read on the loop)
     */
    default boolean hasStreamsInUse() {
        return false;
    }

    /**
     * The peer closed the region of that generation it had registered on the connection: its descriptors are stale
     * (while the control stream is read; note it and return).
     */
    default void onPeerRegionClosed(final int generation) {
    }

    /** Does nothing. */
    StreamActivity NONE = new StreamActivity() {
        @Override
        public void onFramesArrived(final int stream) {
        }

        @Override
        public void onProducerReady(final int stream) {
        }

        @Override
        public void onTerminated() {
        }
    };
}
