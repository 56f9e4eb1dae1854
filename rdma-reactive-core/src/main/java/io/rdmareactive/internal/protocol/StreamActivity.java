package io.rdmareactive.internal.protocol;

/**
 * What the driver tells the layer above about a connection's streams, on the driver thread. Implementations must
 * return at once (schedule work elsewhere, never run user code here) and must not throw.
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
