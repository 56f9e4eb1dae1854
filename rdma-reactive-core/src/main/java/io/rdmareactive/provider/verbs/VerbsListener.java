package io.rdmareactive.provider.verbs;

import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.Listener;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A listening connection-manager identifier bound to {@code host:port}. Connect requests arrive on the device's event
 * thread and wait here, each holding a new identifier, until {@link #accept(Duration)} hands them out; closing the
 * listener rejects those not handed out yet.
 */
final class VerbsListener implements Listener {

    private final VerbsDevice device;
    private final MemorySegment cmId;
    private final String address;
    private final LinkedBlockingQueue<VerbsConnectRequest> requests = new LinkedBlockingQueue<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    VerbsListener(final VerbsDevice device, final MemorySegment cmId, final String address) {
        this.device = device;
        this.cmId = cmId;
        this.address = address;
    }

    MemorySegment cmId() {
        return cmId;
    }

    /** A connect request arrived (on the event thread). */
    void onConnectRequest(final CmEvent event) {
        final VerbsConnectRequest request = new VerbsConnectRequest(device, event.id(),
            PrivateData.unframe(event.privateData()), event.peer() == null ? "(unknown peer)" : event.peer(),
            event.peerQpNumber(), VerbsQueuePair.endpoint(VerbsConnections.gid(MemorySegment.ofAddress(event.id())
                .reinterpret(VerbsLayouts.RDMA_CM_ID.byteSize()), VerbsLayouts.CM_ID_DGID), event.peerQpNumber()));
        if (closed.get()) {
            request.reject(new byte[0]);
            return;
        }
        requests.add(request);
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public ConnectRequest accept(final Duration timeout) {
        if (closed.get()) {
            return null;
        }
        try {
            return timeout.isZero() ? requests.poll() : requests.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        device.connections().destroyListener(this);
        VerbsConnectRequest pending;
        while ((pending = requests.poll()) != null) {
            pending.reject(new byte[0]);
        }
    }

    @Override
    public String toString() {
        return "VerbsListener{" + address + '}';
    }
}
