package io.rdmareactive;

import io.rdmareactive.spi.MemoryRegion;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The memory under one or more {@link LocalRegion}s (one per connection it is registered on): allocated once, freed
 * when the last region over it is freed, with a reference to the runtime whose device allocated it held until then.
 */
final class RegionMemory {

    private final MemoryRegion memory;
    private final RdmaRuntime runtime;
    private final long length;
    private final AtomicInteger references = new AtomicInteger(1);

    /** @param runtime a reference this memory now owns */
    RegionMemory(final MemoryRegion memory, final RdmaRuntime runtime, final long length) {
        this.memory = memory;
        this.runtime = runtime;
        this.length = length;
    }

    /** @return the registration that owns the memory (in the device's domain, for local use only) */
    MemoryRegion memory() {
        return memory;
    }

    /** @return the length the regions over it see */
    long length() {
        return length;
    }

    /** @return the address of byte {@code offset} */
    long address(final long offset) {
        return memory.address() + offset;
    }

    /** Another region shares the memory. @return false if it was freed already */
    boolean retain() {
        while (true) {
            final int count = references.get();
            if (count == 0) {
                return false;
            }
            if (references.compareAndSet(count, count + 1)) {
                return true;
            }
        }
    }

    /** A region over the memory was freed; the last frees it. */
    void release() {
        if (references.decrementAndGet() == 0) {
            memory.close();
            runtime.release();
        }
    }
}
