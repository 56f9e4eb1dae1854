package io.rdmareactive;

import io.rdmareactive.spi.Access;
import java.util.EnumSet;
import java.util.Set;

/**
 * What the peer of a connection may do to a {@link LocalRegion} with one-sided operations. A region carries only the
 * rights it names: the peer's adapter (or, on shared memory, the provider, as an adapter would) refuses anything else.
 */
public enum RegionAccess {

    /** The peer may read the region ({@link RemoteRegion#read}). */
    REMOTE_READ(Access.REMOTE_READ),
    /** The peer may write the region ({@link RemoteRegion#write}). */
    REMOTE_WRITE(Access.REMOTE_WRITE),
    /** The peer may run 64-bit atomics on the region's words ({@link RemoteRegion#fetchAndAdd}, {@code compareAndSwap}). */
    REMOTE_ATOMIC(Access.REMOTE_ATOMIC);

    private final int flag;

    RegionAccess(final int flag) {
        this.flag = flag;
    }

    /** @return the provider's access flag */
    int flag() {
        return flag;
    }

    /** @return the provider's access flags of {@code rights} */
    static int flags(final Set<RegionAccess> rights) {
        int flags = 0;
        for (final RegionAccess right : rights) {
            flags |= right.flag;
        }
        return flags;
    }

    /** @return the rights of the provider's access flags {@code flags} (unknown bits ignored) */
    static Set<RegionAccess> of(final int flags) {
        final EnumSet<RegionAccess> rights = EnumSet.noneOf(RegionAccess.class);
        for (final RegionAccess right : values()) {
            if ((flags & right.flag) != 0) {
                rights.add(right);
            }
        }
        return Set.copyOf(rights);
    }

    /** @return the flags that name rights */
    static int known() {
        return Access.REMOTE_READ | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC;
    }
}
