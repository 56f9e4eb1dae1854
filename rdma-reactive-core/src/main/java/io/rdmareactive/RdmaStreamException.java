package io.rdmareactive;

/** The peer's sender ended the stream with an error; its message is carried across. */
public class RdmaStreamException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;

    public RdmaStreamException(final int code, final String message) {
        super(message);
        this.code = code;
    }

    /** @return 1 when the peer's publisher failed or one of its messages could not be encoded */
    public int code() {
        return code;
    }
}
