package io.rdmareactive.codec;

import java.util.Objects;

/**
 * A codec was given a range it must not touch, a value that does not fit its range, or bytes that are not a valid
 * encoding. The message names the codec, the offending length and the range.
 *
 * <p>Thrown only for invalid input, never on the normal path; the buffer outside the given range is untouched.
 */
public class CodecException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The name of the codec that refused. */
    private final String codecName;

    /**
     * Creates an exception for the codec named {@code codecName}.
     *
     * @param codecName the {@linkplain Codec#name() name} of the codec that refused
     * @param message what was wrong; the codec's name is prefixed to it
     */
    public CodecException(final String codecName, final String message) {
        super(Objects.requireNonNull(codecName, "codecName") + ": " + message);
        this.codecName = codecName;
    }

    /**
     * Creates an exception for the codec named {@code codecName}, caused by another failure.
     *
     * @param codecName the {@linkplain Codec#name() name} of the codec that refused
     * @param message what was wrong; the codec's name is prefixed to it
     * @param cause the underlying failure
     */
    public CodecException(final String codecName, final String message, final Throwable cause) {
        super(Objects.requireNonNull(codecName, "codecName") + ": " + message, cause);
        this.codecName = codecName;
    }

    /**
     * The codec that refused, for metrics and handling without parsing the message.
     *
     * @return the {@linkplain Codec#name() name} of the codec that refused
     */
    public String codecName() {
        return codecName;
    }
}
