package io.rdmareactive.ring;

import org.agrona.UnsafeApi;

/** The operating system's page size, and the checks that registered memory is made of whole pages. */
public final class PageSize {

    private static final int PAGE_SIZE = UnsafeApi.pageSize();

    private PageSize() {
    }

    /** @return the page size in bytes, a power of two (4096 on most x86-64 and aarch64 Linux systems) */
    public static int get() {
        return PAGE_SIZE;
    }

    /**
     * @param length bytes, not negative
     * @return the smallest page multiple that holds {@code length} bytes
     */
    public static long roundUp(final long length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must not be negative: " + length);
        }
        return (length + PAGE_SIZE - 1) & -(long) PAGE_SIZE;
    }

    /** @return true if {@code length} is a positive multiple of the page size */
    public static boolean isPageMultiple(final long length) {
        return length > 0 && (length & (PAGE_SIZE - 1)) == 0;
    }

    /**
     * @param length the length to check
     * @param what   how the caller calls it, for the message
     * @throws IllegalArgumentException naming the length, the page size and the nearest fit
     */
    public static void checkPageMultiple(final long length, final String what) {
        if (!isPageMultiple(length)) {
            throw new IllegalArgumentException(what + " " + length + " is not a positive multiple of the page size "
                + PAGE_SIZE + (length > 0 ? ": round it up to " + roundUp(length) : ""));
        }
    }
}
