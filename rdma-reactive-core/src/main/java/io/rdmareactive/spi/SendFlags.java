package io.rdmareactive.spi;

/** Flags of send work requests, with the values of {@code enum ibv_send_flags}. */
public final class SendFlags {

    /** No flags: the request completes silently unless it fails (selective signalling). */
    public static final int NONE = 0;
    /** Generate a completion for this request even when the queue pair does not signal every request. */
    public static final int SIGNALED = 2;
    /** Copy the payload into the work request at post time; the buffer may be reused at once, no lkey is needed. */
    public static final int INLINE = 8;

    private SendFlags() {
    }
}
