package io.rdmareactive.fault;

import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProvider;

/**
 * A provider whose device cannot be opened because a class is missing, as on a class path that lacks a dependency:
 * {@link #open} throws {@link NoClassDefFoundError}. Chosen by name only ({@value #NAME}).
 */
public final class BrokenInstallationProvider implements RdmaProvider {

    /** The provider's name. */
    public static final String NAME = "broken-installation";

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
        throw new NoClassDefFoundError("org/example/MissingDependency");
    }
}
