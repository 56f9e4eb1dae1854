package io.rdmareactive.fault;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.ConnectionEventHandler;
import io.rdmareactive.spi.DeviceCapability;
import io.rdmareactive.spi.DeviceLimits;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Any device (shared memory or verbs) with one fault injected into its connections, as a {@link FaultInjector}
 * decides. Memory and connection setup pass through; completion queues and queue pairs are wrapped
 * ({@link FaultyCompletionQueue}, {@link FaultyQueuePair}); the device's connection events name the wrapped queue
 * pairs, and a forced queue-pair error is reported before anything the real device says of it.
 */
public final class FaultInjectingDevice implements RdmaDevice {

    private final RdmaDevice delegate;
    private final FaultInjector injector;
    private final Map<QueuePair, FaultyQueuePair> queuePairs = new ConcurrentHashMap<>();
    private final List<FaultyQueuePair> order = new CopyOnWriteArrayList<>();
    private final ArrayDeque<ConnectionEvent> injectedEvents = new ArrayDeque<>();
    private long ticks;

    public FaultInjectingDevice(final RdmaDevice delegate, final FaultInjector injector) {
        this.delegate = delegate;
        this.injector = injector;
    }

    public FaultInjector injector() {
        return injector;
    }

    /** Called on every poll of one of this device's completion queues (the driver thread). */
    void tick() {
        ticks++;
        for (final FaultyQueuePair queuePair : order) {
            queuePair.tick(ticks);
        }
        if (injector.fault() == Fault.QUEUE_PAIR_ERROR && ticks == injector.trigger() && !order.isEmpty()
            && injector.injected() == null) {
            final FaultyQueuePair victim = order.getFirst();
            final String reason = "the adapter moved queue pair " + victim.number() + " to the error state (fault "
                + "injected: " + Fault.QUEUE_PAIR_ERROR + ", seed " + injector.seed() + ")";
            injector.struck("forced queue pair " + victim.number() + " into the error state at poll " + ticks);
            synchronized (injectedEvents) {
                injectedEvents.add(new ConnectionEvent(ConnectionEvent.Type.QUEUE_PAIR_ERROR, victim, reason));
            }
            victim.forceError(reason);
        }
    }

    @Override
    public int pollEvents(final ConnectionEventHandler handler, final int limit) {
        int events = 0;
        synchronized (injectedEvents) {
            while (events < limit && !injectedEvents.isEmpty()) {
                handler.onEvent(injectedEvents.poll());
                events++;
            }
        }
        if (events < limit) {
            events += delegate.pollEvents(event -> handler.onEvent(new ConnectionEvent(event.type(),
                queuePairs.getOrDefault(event.queuePair(), null) != null ? queuePairs.get(event.queuePair())
                    : event.queuePair(), event.reason())), limit - events);
        }
        return events;
    }

    private FaultyQueuePair wrap(final QueuePair queuePair) {
        final FaultyQueuePair wrapped = new FaultyQueuePair(queuePair, injector);
        queuePairs.put(queuePair, wrapped);
        order.add(wrapped);
        return wrapped;
    }

    private static QueuePairOptions unwrap(final QueuePairOptions options) {
        return new QueuePairOptions(real(options.sendQueue()), real(options.receiveQueue()), options.sendDepth(),
            options.receiveDepth(), options.maxSendSge(), options.maxReceiveSge(), options.maxInlineData(),
            options.signalAll(), options.rnrRetries(), options.prepare(), options.protectionDomain());
    }

    private static CompletionQueue real(final CompletionQueue queue) {
        return queue instanceof FaultyCompletionQueue faulty ? faulty.delegate() : queue;
    }

    @Override
    public QueuePair connect(final String address, final QueuePairOptions options,
                             final java.util.function.Function<? super QueuePair, byte[]> request,
                             final Duration timeout) {
        return wrap(delegate.connect(address, unwrap(options), request, timeout));
    }

    @Override
    public Listener listen(final String address) {
        final Listener listener = delegate.listen(address);
        return new Listener() {
            @Override
            public String address() {
                return listener.address();
            }

            @Override
            public ConnectRequest accept(final Duration timeout) {
                final ConnectRequest request = listener.accept(timeout);
                return request == null ? null : new ConnectRequest() {
                    @Override
                    public byte[] privateData() {
                        return request.privateData();
                    }

                    @Override
                    public String peerDescription() {
                        return request.peerDescription();
                    }

                    @Override
                    public byte[] peerEndpoint() {
                        return request.peerEndpoint();
                    }

                    @Override
                    public QueuePair accept(final QueuePairOptions options,
                                            final java.util.function.Function<? super QueuePair, byte[]> answer) {
                        return wrap(request.accept(unwrap(options), answer));
                    }

                    @Override
                    public void reject(final byte[] privateData) {
                        request.reject(privateData);
                    }
                };
            }

            @Override
            public void close() {
                listener.close();
            }
        };
    }

    @Override
    public CompletionQueue createCompletionQueue(final int capacity) {
        return new FaultyCompletionQueue(delegate.createCompletionQueue(capacity), this, injector);
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public String providerName() {
        return delegate.providerName();
    }

    @Override
    public Set<DeviceCapability> capabilities() {
        // no direct peer access: the faults strike posts and completions, so every byte must go through them
        final Set<DeviceCapability> capabilities = java.util.EnumSet.noneOf(DeviceCapability.class);
        capabilities.addAll(delegate.capabilities());
        capabilities.remove(DeviceCapability.DIRECT_PEER_ACCESS);
        return capabilities;
    }

    @Override
    public DeviceLimits limits() {
        return delegate.limits();
    }

    @Override
    public MemoryRegion allocateRegion(final long length, final int access) {
        return delegate.allocateRegion(length, access);
    }

    @Override
    public MemoryRegion register(final OffHeapMemory memory, final int access) {
        return delegate.register(memory, access);
    }

    @Override
    public io.rdmareactive.spi.ProtectionDomain allocateProtectionDomain() {
        return delegate.allocateProtectionDomain();
    }

    @Override
    public long registeredBytes() {
        return delegate.registeredBytes();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
