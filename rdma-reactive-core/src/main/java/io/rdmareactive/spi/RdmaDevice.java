package io.rdmareactive.spi;

import io.rdmareactive.ring.OffHeapMemory;
import java.time.Duration;
import java.util.Set;

/**
 * An open device of a provider: for verbs, an adapter context with its own protection domain (and those it allocates,
 * {@link #allocateProtectionDomain()}); for shared memory, this
 * process's endpoint in the shared directory. Everything created from it (regions, completion queues, queue pairs,
 * listeners) belongs to it and is released by {@link #close()}.
 *
 * <p>Setup methods throw {@link RdmaException} with a message that says what was wrong and what to do; they may be
 * called from any thread.
 */
public interface RdmaDevice extends AutoCloseable {

    /** @return the device's name (the adapter's name on verbs) */
    String name();

    /** @return the name of the provider that opened it */
    String providerName();

    /** @return what the device can do */
    Set<DeviceCapability> capabilities();

    /** @return the device's limits */
    DeviceLimits limits();

    /**
     * Allocates page-aligned memory suited to this provider and registers it.
     *
     * @param length bytes, a positive multiple of the page size
     * @param access {@link Access} flags
     * @return the registered region; closing it deregisters and frees the memory
     */
    MemoryRegion allocateRegion(long length, int access);

    /**
     * Registers memory the caller owns. The registration takes a lease on the memory, so the caller may close its
     * {@link OffHeapMemory} at any time: it is freed after the region is deregistered.
     *
     * @param memory the memory
     * @param access {@link Access} flags
     * @return the registered region; closing it deregisters (the memory stays the caller's)
     */
    MemoryRegion register(OffHeapMemory memory, int access);

    /**
     * Allocates a protection domain of this device: regions registered in it are reachable only through queue pairs
     * created in it.
     *
     * @return the domain; close it once its queue pairs and regions are closed
     */
    ProtectionDomain allocateProtectionDomain();

    /** @return bytes registered now, counted against {@link DeviceLimits#maxRegisteredBytes()} */
    long registeredBytes();

    /**
     * @param capacity completions it can hold; a full completion queue is a fatal error (as on verbs), so size it for
     *                 every work request that can be outstanding on the queue pairs that use it
     * @return a new completion queue
     */
    CompletionQueue createCompletionQueue(int capacity);

    /**
     * Listens for connect requests.
     *
     * @param address where to listen, in the provider's address form (shared memory: a name or a socket path; verbs:
     *                {@code host:port})
     * @return the listener; close it to stop listening
     */
    Listener listen(String address);

    /**
     * Connects a new queue pair to a listener, sending private data and receiving the listener's.
     *
     * @param address     the listener's address
     * @param options     the queue pair to create
     * @param privateData at most {@link DeviceLimits#maxPrivateDataLength()} bytes for the listener
     * @param timeout     how long to wait for the listener's answer
     * @return the connected queue pair, ready to post; {@link QueuePair#peerPrivateData()} holds the answer
     * @throws ConnectionRejectedException if the listener rejected the request
     * @throws RdmaException               if there is no listener, or it did not answer in time
     */
    default QueuePair connect(final String address, final QueuePairOptions options, final byte[] privateData,
                              final Duration timeout) {
        return connect(address, options, queuePair -> privateData, timeout);
    }

    /**
     * Connects with private data made once the new queue pair exists, so that it can depend on this side's
     * {@linkplain QueuePair#localEndpoint() endpoint} (an authenticated request binds it).
     *
     * @param address the listener's address
     * @param options the queue pair to create
     * @param request makes at most {@link DeviceLimits#maxPrivateDataLength()} bytes for the listener from the new
     *                queue pair, whose local endpoint is known (its peer's is not yet); what it throws fails the
     *                connect, and the queue pair is closed
     * @param timeout how long to wait for the listener's answer
     * @return the connected queue pair, ready to post; {@link QueuePair#peerPrivateData()} holds the answer
     * @throws ConnectionRejectedException if the listener rejected the request
     * @throws RdmaException               if there is no listener, or it did not answer in time
     */
    QueuePair connect(String address, QueuePairOptions options,
                      java.util.function.Function<? super QueuePair, byte[]> request, Duration timeout);

    /**
     * Hands connection events (disconnects, dead peers, queue pairs in the error state) to the handler, on the calling
     * thread. Non-blocking; allocates nothing when there is no event.
     *
     * @param handler receives each event
     * @param limit   at most this many events
     * @return the number of events handled
     */
    int pollEvents(ConnectionEventHandler handler, int limit);

    /** Closes every queue pair, listener, completion queue and region of this device, and the device. Idempotent. */
    @Override
    void close();
}
