package io.rdmareactive;

import io.rdmareactive.internal.driver.ConnectionDriverAgent;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/** A device and the driver thread that serves its connections; what a server or a client runs on. */
final class RdmaRuntime implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RdmaRuntime.class.getName());

    final RdmaDevice device;
    final ConnectionDriverAgent driver;
    private final AgentRunner runner;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RdmaRuntime(final RdmaDevice device, final ConnectionDriverAgent driver, final AgentRunner runner) {
        this.device = device;
        this.driver = driver;
        this.runner = runner;
    }

    static RdmaRuntime open(final RdmaConfig config, final String name) {
        final DeviceOptions.Builder options = DeviceOptions.builder();
        if (config.directory() != null) {
            options.directory(config.directory());
        }
        final RdmaDevice device = RdmaProviders.named(config.provider()).open(options.build());
        try {
            final ConnectionDriverAgent driver = new ConnectionDriverAgent(name, device);
            final AgentRunner runner = new AgentRunner(idleStrategy(config.idle()),
                error -> LOG.log(System.Logger.Level.ERROR, "the rdma-reactive driver " + name + " failed", error),
                null, driver);
            AgentRunner.startOnThread(runner, task -> {
                final Thread thread = new Thread(task);
                thread.setDaemon(true);
                return thread;
            });
            return new RdmaRuntime(device, driver, runner);
        } catch (final RuntimeException ex) {
            device.close();
            throw ex;
        }
    }

    static IdleStrategy idleStrategy(final String name) {
        return switch (name) {
            case "busy-spin" -> new BusySpinIdleStrategy();
            case "yielding" -> new YieldingIdleStrategy();
            case "backoff" -> new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1),
                TimeUnit.MICROSECONDS.toNanos(100));
            case "sleeping" -> new SleepingMillisIdleStrategy(1);
            default -> throw new IllegalArgumentException("unknown idle strategy '" + name
                + "'; use busy-spin, yielding, backoff or sleeping");
        };
    }

    /** Stops the driver thread (closing every connection it serves) and closes the device. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                runner.close();
            } finally {
                device.close();
            }
        }
    }
}
