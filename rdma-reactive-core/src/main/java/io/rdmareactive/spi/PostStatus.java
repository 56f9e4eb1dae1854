package io.rdmareactive.spi;

/**
 * Return values of {@link QueuePair#postSend(SendWorkRequest)} and {@link QueuePair#postReceive(ReceiveWorkRequest)}:
 * 0 or an errno value, as the verbs post calls return them. Nothing is posted from the failing request on (see
 * {@link SendWorkRequest#failedIndex()}).
 */
public final class PostStatus {

    /** Everything in the request was posted. */
    public static final int OK = 0;
    /** The send or receive queue is full ({@code ENOMEM}): wait for completions, then post again. */
    public static final int QUEUE_FULL = 12;
    /** The request is malformed ({@code EINVAL}): too many gather entries, bad opcode, inline data too long. */
    public static final int INVALID = 22;

    private PostStatus() {
    }

    /** @return a name for the status */
    public static String name(final int status) {
        return switch (status) {
            case OK -> "OK";
            case QUEUE_FULL -> "QUEUE_FULL(ENOMEM)";
            case INVALID -> "INVALID(EINVAL)";
            default -> "ERRNO(" + status + ")";
        };
    }
}
