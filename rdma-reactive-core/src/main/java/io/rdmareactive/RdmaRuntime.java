package io.rdmareactive;

import io.rdmareactive.internal.driver.ConnectionDriverAgent;
import io.rdmareactive.internal.driver.DriverCounters;
import io.rdmareactive.internal.driver.DriverRunner;
import io.rdmareactive.internal.driver.ThreadingMode;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A device, the driver thread that serves its connections, and the driver's counters (a file other processes can
 * read with {@code CountersReaderTool}); what a server or a client runs on.
 */
final class RdmaRuntime implements AutoCloseable {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    final RdmaDevice device;
    /** The runtime's name ({@code <role>-<pid>-<n>}), which its threads' names carry. */
    final String name;
    final ConnectionDriverAgent driver;
    final DriverCounters counters;
    private final DriverRunner runner;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RdmaRuntime(final RdmaDevice device, final String name, final ConnectionDriverAgent driver,
                        final DriverCounters counters, final DriverRunner runner) {
        this.device = device;
        this.name = name;
        this.driver = driver;
        this.counters = counters;
        this.runner = runner;
    }

    static RdmaRuntime open(final RdmaConfig config, final String role) {
        final DeviceOptions.Builder options = DeviceOptions.builder();
        if (config.directory() != null) {
            options.directory(config.directory());
        }
        if (config.maxRegisteredBytes() > 0) {
            options.maxRegisteredBytes(config.maxRegisteredBytes());
        }
        final RdmaDevice device = RdmaProviders.named(config.provider()).open(options.build());
        DriverCounters counters = null;
        try {
            final String name = (role + "-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet())
                .replaceAll("[^A-Za-z0-9._-]", "_");
            counters = DriverCounters.create(countersDirectory(config), name);
            final ConnectionDriverAgent driver = new ConnectionDriverAgent(name, device);
            final DriverRunner runner = DriverRunner.builder(name)
                .threadingMode(ThreadingMode.SHARED)
                .idleStrategy(config.idle())
                .counters(counters)
                .agent(driver)
                .start();
            return new RdmaRuntime(device, name, driver, counters, runner);
        } catch (final RuntimeException ex) {
            if (counters != null) {
                counters.close();
            }
            device.close();
            throw ex;
        }
    }

    /** Where the counters file goes: the configured directory, else the shared-memory default, else the temp dir. */
    private static Path countersDirectory(final RdmaConfig config) {
        if (config.directory() != null) {
            return config.directory();
        }
        final String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        final Path shm = Path.of("/dev/shm");
        final Path directory = (Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")))
            .resolve("rdma-reactive-" + user);
        try {
            Files.createDirectories(directory);
        } catch (final java.io.IOException ex) {
            throw new RdmaConnectionException("cannot create the counters directory " + directory + ": " + ex, ex);
        }
        return directory;
    }

    /** Stops the driver thread (closing every connection it serves), the counters and the device. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                runner.close();
            } finally {
                try {
                    counters.close();
                } finally {
                    device.close();
                }
            }
        }
    }
}
