package io.rdmareactive;

/**
 * A request could not start: every request stream of the connection is still in use (the peer has not finished
 * serving earlier requests) and 1,024 requests wait for one already, or, for a request/response call, 1,024 calls are
 * in flight and 1,024 more wait. Nothing was sent, so the request may be tried again once an answer arrives;
 * {@code RdmaClient.rings(streams, capacity)} allows more streams.
 */
public class RdmaStreamsBusyException extends RdmaConnectionException {

    private static final long serialVersionUID = 1L;

    private final int requestStreams;

    public RdmaStreamsBusyException(final int requestStreams) {
        super("all " + requestStreams + " request streams of this connection are busy; wait for answers, or allow "
            + "more streams (rings(streams, capacity))");
        this.requestStreams = requestStreams;
    }

    /**
     * @param message        what is busy
     * @param requestStreams as {@link #requestStreams()}
     */
    RdmaStreamsBusyException(final String message, final int requestStreams) {
        super(message);
        this.requestStreams = requestStreams;
    }

    /** @return how many request streams this side of the connection may have open at once */
    public int requestStreams() {
        return requestStreams;
    }
}
