package io.rdmareactive.spi;

/**
 * A transport that behaves like an RDMA adapter: registered memory, queue pairs, completion queues and a connection
 * manager. Found through {@link java.util.ServiceLoader} (see {@link RdmaProviders}); a provider announces itself in
 * {@code META-INF/services/io.rdmareactive.spi.RdmaProvider}.
 *
 * <p>Implementations must have a public no-argument constructor that does no work: discovery must stay cheap and
 * must not fail on machines where the provider cannot run. {@link #availability()} does the checking.
 */
public interface RdmaProvider {

    /** @return the short name users put in configuration, for example {@code shm} or {@code verbs} */
    String name();

    /**
     * Checks whether this provider can run here, and says why not where it cannot (which library or kernel module is
     * missing, which device is down, which limit is too low), in a sentence a user can act on.
     *
     * @return the availability; never throws
     */
    Availability availability();

    /**
     * Opens a device of this provider.
     *
     * @param options what to open and how
     * @return the open device; close it to release everything it holds
     * @throws RdmaException if the device cannot be opened; the message says what was wrong and what to do
     */
    RdmaDevice open(DeviceOptions options);

    /**
     * Describes the devices this provider sees, for records kept next to measurements: each device's name, firmware,
     * and each port's state, link layer, MTU and speed, one line per item. Never throws; empty where the provider has
     * nothing to describe beyond its {@link #availability()}.
     *
     * @return the description, or an empty string
     */
    default String describeDevices() {
        return "";
    }
}
