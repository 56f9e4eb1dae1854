package io.rdmareactive.spi;

/** The listener rejected a connect request; it may have said why in its private data. */
public final class ConnectionRejectedException extends RdmaException {

    private static final long serialVersionUID = 1L;

    private final byte[] privateData;

    public ConnectionRejectedException(final String message, final byte[] privateData) {
        super(message);
        this.privateData = privateData.clone();
    }

    /** @return the private data the listener sent with its reject, possibly empty */
    public byte[] privateData() {
        return privateData.clone();
    }
}
