package io.rdmareactive.provider.shm;

import io.rdmareactive.ring.PrivateDirectory;
import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProvider;
import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shared-memory provider, {@code shm}: RDMA semantics between processes of one host, in pure Java. Registered
 * memory is memory-mapped files; the posting thread plays the adapter; connection setup and liveness use UNIX-domain
 * sockets. It is the reference provider: every machine can run the whole stack on it.
 */
public final class ShmProvider implements RdmaProvider {

    /** The provider's name in configuration. */
    public static final String NAME = "shm";

    /**
     * The device property ({@link io.rdmareactive.spi.DeviceOptions.Builder#property}) that, set to {@code false},
     * withholds {@link io.rdmareactive.spi.DeviceCapability#DIRECT_PEER_ACCESS}: every write then goes through the
     * queue pair as an RDMA WRITE does on verbs, with its completions and the peer's receive grant, which is how tests
     * run the verbs-shaped data path on shared memory. On by default.
     */
    public static final String DIRECT_PEER_ACCESS_PROPERTY = "shm.directPeerAccess";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Availability availability() {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            if (!probe.isOpen()) {
                return Availability.unavailable("UNIX-domain sockets cannot be opened here");
            }
            final Path directory = PrivateDirectory.defaultPath();
            final Path existing = Files.exists(directory) ? directory : directory.getParent();
            if (existing == null || !Files.isWritable(existing)) {
                return Availability.unavailable("the default shared-memory directory " + directory + " cannot be "
                    + "created; set DeviceOptions.directory to a writable directory");
            }
            return Availability.available("memory-mapped files in " + directory + " and UNIX-domain sockets work "
                + "on this machine (same-host peers only)");
        } catch (final Exception ex) {
            return Availability.unavailable("UNIX-domain sockets are not supported here: " + ex);
        }
    }

    @Override
    public RdmaDevice open(final DeviceOptions options) {
        return ShmDevice.open(options);
    }
}
