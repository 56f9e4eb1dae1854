package io.rdmareactive.provider.verbs;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RegistrationLimitException;

/**
 * The child JVM of {@link VerbsLockedMemoryLimitTest}: opens the verbs device as an unprivileged user under a small
 * {@code ulimit -l}, registers a page (which fits), then 1 MiB (which does not), and prints what happened:
 * {@code LIMIT <bytes>}, {@code SMALL OK}, then {@code REFUSED <message>} or {@code REGISTERED}.
 */
public final class LockedMemoryProbe {

    private LockedMemoryProbe() {
    }

    public static void main(final String[] args) {
        try (RdmaDevice device = new VerbsProvider().open(DeviceOptions.defaults())) {
            System.out.println("LIMIT " + device.limits().maxRegisteredBytes());
            try (MemoryRegion small = device.allocateRegion(4096, Access.LOCAL_WRITE)) {
                System.out.println("SMALL OK " + small.isRegistered());
            }
            try (MemoryRegion large = device.allocateRegion(1 << 20, Access.LOCAL_WRITE)) {
                System.out.println("REGISTERED " + large.length());
            } catch (final RegistrationLimitException refused) {
                System.out.println("REFUSED " + refused.getMessage());
            }
        }
        System.out.flush();
    }
}
