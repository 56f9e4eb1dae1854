package io.rdmareactive.spi;

/**
 * Access flags of a memory region, with the values of {@code enum ibv_access_flags}. A region carries the least
 * access it needs: {@link #REMOTE_WRITE} only where a peer writes (receive rings, credit words), {@link #REMOTE_READ}
 * only where a peer reads.
 */
public final class Access {

    /** The adapter may write the region locally: needed for receive buffers and RDMA READ targets. */
    public static final int LOCAL_WRITE = 1;
    /** A peer may RDMA WRITE into the region (requires {@link #LOCAL_WRITE} on verbs). */
    public static final int REMOTE_WRITE = 2;
    /** A peer may RDMA READ from the region. */
    public static final int REMOTE_READ = 4;
    /** A peer may run 64-bit atomics (compare-and-swap, fetch-and-add) on the region (requires {@link #LOCAL_WRITE}). */
    public static final int REMOTE_ATOMIC = 8;

    private static final int ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;

    private Access() {
    }

    /**
     * @param access flags to check
     * @throws IllegalArgumentException if they hold unknown bits, or remote write without local write
     */
    public static void validate(final int access) {
        if ((access & ~ALL) != 0) {
            throw new IllegalArgumentException("unknown access flags 0x" + Integer.toHexString(access & ~ALL)
                + " in " + toString(access) + "; use Access.LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC");
        }
        if ((access & REMOTE_WRITE) != 0 && (access & LOCAL_WRITE) == 0) {
            throw new IllegalArgumentException("REMOTE_WRITE needs LOCAL_WRITE too (as on verbs): " + toString(access));
        }
        if ((access & REMOTE_ATOMIC) != 0 && (access & LOCAL_WRITE) == 0) {
            throw new IllegalArgumentException("REMOTE_ATOMIC needs LOCAL_WRITE too (as on verbs): " + toString(access));
        }
    }

    /** @return true if every flag of {@code required} is in {@code access} */
    public static boolean allows(final int access, final int required) {
        return (access & required) == required;
    }

    /** @return the flags as text, for example {@code LOCAL_WRITE|REMOTE_WRITE} */
    public static String toString(final int access) {
        if (access == 0) {
            return "NONE";
        }
        final StringBuilder text = new StringBuilder();
        append(text, access, LOCAL_WRITE, "LOCAL_WRITE");
        append(text, access, REMOTE_WRITE, "REMOTE_WRITE");
        append(text, access, REMOTE_READ, "REMOTE_READ");
        append(text, access, REMOTE_ATOMIC, "REMOTE_ATOMIC");
        if ((access & ~ALL) != 0) {
            append(text, access, access & ~ALL, "0x" + Integer.toHexString(access & ~ALL));
        }
        return text.toString();
    }

    private static void append(final StringBuilder text, final int access, final int flag, final String name) {
        if ((access & flag) != 0) {
            if (!text.isEmpty()) {
                text.append('|');
            }
            text.append(name);
        }
    }
}
