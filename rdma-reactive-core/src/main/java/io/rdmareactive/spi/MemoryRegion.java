package io.rdmareactive.spi;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Registered memory: an address range the device may read and write, named by a local key (lkey) in local work
 * requests and by a remote key (rkey) in a peer's one-sided requests.
 *
 * <p>{@link #close()} deregisters. Deregistration waits until the work posted on the region has completed (its
 * completions polled, or its queue pairs destroyed); the memory is freed only after it is deregistered. Keys die with
 * the registration: a peer using the rkey afterwards gets {@link CompletionStatus#REM_ACCESS_ERR}.
 */
public interface MemoryRegion extends AutoCloseable {

    /** @return the address of the first byte, as work requests name it */
    long address();

    /** @return the length in bytes */
    long length();

    /** @return the key local work requests use */
    int lkey();

    /** @return the key a peer's one-sided requests use */
    int rkey();

    /** @return the {@link Access} flags */
    int access();

    /** @return the memory as an Agrona buffer (the first {@link Integer#MAX_VALUE} bytes of it); valid until freed */
    AtomicBuffer buffer();

    /**
     * @return the memory this region registers, to register it again elsewhere (in another
     *     {@link ProtectionDomain}: each registration has its own keys); valid until freed
     */
    io.rdmareactive.ring.OffHeapMemory memory();

    /** @return true until deregistration has happened (not merely been asked for) */
    boolean isRegistered();

    /** Asks for deregistration, which happens now or when the outstanding work on the region has completed. */
    @Override
    void close();
}
