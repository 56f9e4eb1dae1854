package io.rdmareactive;

/**
 * A request could not start because every request stream of the connection is still in use (the peer has not
 * finished serving earlier requests). Nothing was sent, so the request may be tried again once an answer arrives;
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

    /** @return how many request streams this side of the connection may have open at once */
    public int requestStreams() {
        return requestStreams;
    }
}
