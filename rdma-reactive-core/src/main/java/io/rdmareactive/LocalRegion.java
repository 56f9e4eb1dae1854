package io.rdmareactive;

import io.rdmareactive.spi.MemoryRegion;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Memory of this process that the peer of one connection may read, write or run atomics on without this process's
 * CPU ({@link Connection#registerRegion}), and that this side uses as the source or target of its own one-sided
 * operations on that connection. {@link #buffer()} is the memory for local use; {@link #descriptor()} is what to send
 * the peer.
 *
 * <p>The region is registered in the connection's own protection domain, so only the peer of that connection can
 * reach it, and only with the rights it was given. Its registration is counted: the region holds one reference, each
 * of this side's one-sided operations that reads or writes it holds one while in flight. {@link #close()} gives the
 * region's up: once no operation of this side uses it (at once, if none does), it is deregistered, the peer's
 * operations on it are refused by its adapter from then on, and the memory is freed. When the connection ends, the peer loses its access at once; the memory stays
 * this side's until the region is closed.
 */
public final class LocalRegion implements AutoCloseable {

    private final DefaultConnection connection;
    private final RegionMemory memory;
    private final MemoryRegion registration;
    private final UnsafeBuffer buffer;
    private final long length;
    private final RegionDescriptor descriptor;
    /** The region's own reference (until closed) and one per operation in flight; freed at 0. */
    private final AtomicInteger references = new AtomicInteger(1);
    private volatile boolean closed;
    private volatile boolean deregistered;

    /** @param memory a reference to the memory this region now owns */
    LocalRegion(final DefaultConnection connection, final RegionMemory memory, final MemoryRegion registration,
                final long length, final int generation, final Set<RegionAccess> rights, final long token) {
        this.connection = connection;
        this.memory = memory;
        this.registration = registration;
        this.length = length;
        this.buffer = new UnsafeBuffer(memory.address(0), (int) Math.min(length, Integer.MAX_VALUE));
        this.descriptor = new RegionDescriptor(token, generation, registration.address(), length, registration.rkey(),
            rights);
    }

    /** @return the region's memory, for local reads and writes (valid until the region is closed) */
    public MutableDirectBuffer buffer() {
        if (closed) {
            throw new IllegalStateException("the region (generation " + descriptor.generation() + ") is closed");
        }
        return buffer;
    }

    /** @return the region's length in bytes */
    public long length() {
        return length;
    }

    /** @return what the peer may do to the region */
    public Set<RegionAccess> rights() {
        return descriptor.rights();
    }

    /** @return what the peer needs to reach the region; send it in any message ({@link RegionDescriptor#CODEC}) */
    public RegionDescriptor descriptor() {
        return descriptor;
    }

    /** @return true once {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Revokes the peer's access and gives the memory up, once this side's operations that use the region have
     * completed (at once, if none is in flight): later operations of the peer on the region fail on its side with a
     * remote access error. This side's operations may no longer use it. Idempotent.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            release();
        }
    }

    /** @return the memory under the region, which other connections' regions may share */
    RegionMemory memory() {
        return memory;
    }

    /** @return the connection whose domain the region is registered in */
    DefaultConnection connection() {
        return connection;
    }

    /** @return the address of byte {@code offset}, for this side's work requests */
    long address(final long offset) {
        return memory.address(offset);
    }

    /** @return the key this side's work requests use (in the connection's domain) */
    int lkey() {
        return registration.lkey();
    }

    /** Takes a reference for an operation in flight. @return false if the region is closed */
    boolean retain() {
        while (true) {
            final int count = references.get();
            if (count == 0 || closed) {
                return false;
            }
            if (references.compareAndSet(count, count + 1)) {
                return true;
            }
        }
    }

    /** Gives a reference back; the last frees the memory. */
    void release() {
        if (references.decrementAndGet() == 0) {
            deregister();
            connection.onRegionFreed(this);
            memory.release();
        }
    }

    /** The peer's access ends (the region closed, or its connection ended); the memory stays. Idempotent. */
    void deregister() {
        if (!deregistered) {
            synchronized (this) {
                if (!deregistered) {
                    deregistered = true;
                    registration.close();
                }
            }
        }
    }

    @Override
    public String toString() {
        return "LocalRegion{" + descriptor + (closed ? ", closed" : "") + '}';
    }
}
