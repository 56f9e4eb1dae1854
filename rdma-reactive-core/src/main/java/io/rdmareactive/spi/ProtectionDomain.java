package io.rdmareactive.spi;

import io.rdmareactive.ring.OffHeapMemory;

/**
 * A protection domain: memory registered in it is reachable, by local work requests and by a peer's remote ones, only
 * through queue pairs created in the same domain ({@link QueuePairOptions.Builder#protectionDomain}). A peer that
 * holds a key of a region in another domain, even one of the same device, gets a remote access error on its queue
 * pair (on verbs the adapter checks it; on shared memory the provider, as an adapter would). Giving each connection a
 * domain of its own keeps one peer's keys from working on another connection's memory.
 *
 * <p>{@link RdmaDevice#allocateRegion} and {@link RdmaDevice#register} register in the device's own domain, which
 * queue pairs created without a domain use. Close a domain once its queue pairs and regions are closed; the provider
 * releases it when the last of them is gone, and the device's close releases any left.
 */
public interface ProtectionDomain extends AutoCloseable {

    /**
     * Allocates page-aligned memory and registers it in this domain, as {@link RdmaDevice#allocateRegion} does.
     *
     * @param length bytes, a positive multiple of the page size
     * @param access {@link Access} flags
     * @return the registered region; closing it deregisters and frees the memory
     */
    MemoryRegion allocateRegion(long length, int access);

    /**
     * Registers memory the caller owns in this domain, as {@link RdmaDevice#register} does.
     *
     * @param memory the memory
     * @param access {@link Access} flags
     * @return the registered region; closing it deregisters (the memory stays the caller's)
     */
    MemoryRegion register(OffHeapMemory memory, int access);

    /** Gives the domain up: released once its queue pairs and regions are closed. Idempotent. */
    @Override
    void close();
}
