package io.rdmareactive.fault;

import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProvider;
import io.rdmareactive.spi.RdmaProviders;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The shared-memory provider, with a fault armed for the next device it opens: the way to inject a fault under the
 * public API ({@code RdmaClient.create().provider("fault-shm")}), whose runtime opens the device. {@link #arm}
 * arms one fault; the next device opened carries it ({@link FaultInjectingDevice}), and the devices opened after that
 * are plain shared memory. The fault strikes once ({@link FaultInjector}), so a client that reconnects gets a healthy
 * connection, on a new runtime's device or on the faulty one if its runtime is still open.
 * It reports itself unavailable, so that {@code auto} never chooses it.
 */
public final class FaultInjectingProvider implements RdmaProvider {

    /** The provider's name. */
    public static final String NAME = "fault-shm";

    private static final AtomicReference<FaultInjector> ARMED = new AtomicReference<>();
    private static final AtomicReference<FaultInjectingDevice> LAST = new AtomicReference<>();

    /**
     * Arms a fault for the next device this provider opens.
     *
     * @param injector the fault, its seed
     */
    public static void arm(final FaultInjector injector) {
        ARMED.set(injector);
        LAST.set(null);
    }

    /** @return the device that carried the armed fault, or null if none was opened since it was armed */
    public static FaultInjectingDevice faulty() {
        return LAST.get();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Availability availability() {
        return Availability.unavailable("a test provider: it is chosen by name only, never by 'auto'");
    }

    @Override
    public RdmaDevice open(final DeviceOptions options) {
        final RdmaDevice device = RdmaProviders.named("shm").open(options);
        final FaultInjector injector = ARMED.getAndSet(null);
        if (injector == null) {
            return device;
        }
        final FaultInjectingDevice faulty = new FaultInjectingDevice(device, injector);
        LAST.set(faulty);
        return faulty;
    }
}
