package io.rdmareactive;

import io.rdmareactive.internal.JvmFlags;
import io.rdmareactive.internal.driver.DriverCounters;
import io.rdmareactive.internal.driver.EventLoop;
import io.rdmareactive.internal.driver.EventLoopGroup;
import io.rdmareactive.internal.driver.IdleStrategies;
import io.rdmareactive.internal.protocol.ReassemblyBudget;
import io.rdmareactive.ring.FileNames;
import io.rdmareactive.ring.PrivateDirectory;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.Disposable;
import reactor.core.scheduler.NonBlocking;

/**
 * What servers and clients run on: one device of a provider, one counters file, and a small group of <b>event
 * loops</b>, each a thread of its own ({@code rdma-loop-<runtime>-<i>}) that alone serves the connections pinned to
 * it. As with reactor-netty's {@code LoopResources}, a process needs one: every {@link RdmaClient} and
 * {@link RdmaServer} uses a runtime shared by the whole process unless given its own with {@code runOn(runtime)}.
 *
 * <pre>{@code
 * RdmaRuntime runtime = RdmaRuntime.builder().provider("shm").loops(2).idleStrategy("busy-spin").build();
 * DisposableServer server = RdmaServer.create().runOn(runtime).address("quotes").handle(...).bind().block();
 * Connection connection = RdmaClient.create().runOn(runtime).address("quotes").connect().block();
 * ...
 * runtime.dispose(); // its loops stop once the last server and connection on it are disposed too
 * }</pre>
 *
 * <h2>Threads</h2>
 * Inbound signals ({@code onNext}, {@code onComplete}, {@code onError}), codecs' decoding and the handlers of a
 * server run on the loop of their connection; a subscriber that blocks or works long moves off it with
 * {@code publishOn}. Outbound messages are encoded on the thread that emits them, straight into the send ring. See
 * docs/threading.md.
 *
 * <h2>Invoker mode</h2>
 * A runtime built with {@link Builder#invoker()} starts no thread: the application drives every loop with
 * {@link #doWork()}, from one thread at a time, and so sends and polls with no hop between threads at all.
 *
 * <h2>Lifetime</h2>
 * A runtime is reference-counted: the builder's caller holds one reference, each server and connection on it holds
 * one. {@link #dispose()} gives up the caller's; the loops stop, the device and the counters close once the last
 * reference is gone. The process's shared runtimes (one for each provider, directory, idle strategy and memory limit
 * that clients and servers ask for) come and go with their users.
 *
 * <p>Closing removes the counters file ({@code <name>.counters}) and the liveness file beside it. A process that ends
 * without closing its runtimes (killed, or exiting without disposing them) leaves both; the next runtime created in the
 * same counters directory, by any process, removes the files of every runtime whose process is gone.
 */
public final class RdmaRuntime implements Disposable {

    /**
     * A runtime's name, {@code <provider>-<pid>-<n>}: its provider's name (characters other than
     * {@code [A-Za-z0-9._-]} replaced by {@code _}), the process id and the runtime's number in the process.
     */
    static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile(
        "[A-Za-z0-9._-]+-(?<pid>[0-9]{1,19})-[0-9]{1,19}");

    /** The system property that sets the default number of loops. */
    public static final String LOOPS_PROPERTY = "rdma.loops";

    /**
     * What a runtime registers at most unless told otherwise: half of the machine's physical memory (or no limit of
     * ours where the JVM cannot tell it), so that peers cannot make a process pin or map all of it. On verbs the
     * locked-memory limit ({@code RLIMIT_MEMLOCK}) applies as well, whichever is lower; where the process may lock
     * without limit (root, {@code CAP_IPC_LOCK}, {@code ulimit -l unlimited}), this one remains.
     */
    static final long DEFAULT_MAX_REGISTERED_BYTES = halfOfPhysicalMemory();

    private static long halfOfPhysicalMemory() {
        try {
            if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os && os.getTotalMemorySize() > 0) {
                return os.getTotalMemorySize() / 2;
            }
        } catch (final RuntimeException | LinkageError ex) {
            // no management beans here: no default of ours
        }
        return DeviceOptions.UNLIMITED;
    }

    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final Map<SharedKey, RdmaRuntime> SHARED = new HashMap<>();

    final RdmaDevice device;
    final String name;
    final DriverCounters counters;
    /** The direct memory the runtime's inbound streams may hold for messages that arrive in fragments. */
    final ReassemblyBudget reassembly = new ReassemblyBudget(maxDirectMemory() / 2);
    final EventLoopGroup loops;
    private final SharedKey sharedKey;
    private final String idle;
    private int references;
    private boolean released;
    private boolean disposedByOwner;

    private RdmaRuntime(final RdmaDevice device, final String name, final DriverCounters counters,
                        final EventLoopGroup loops, final SharedKey sharedKey, final String idle) {
        this.device = device;
        this.name = name;
        this.counters = counters;
        this.loops = loops;
        this.sharedKey = sharedKey;
        this.idle = idle;
        this.references = 1;
    }

    /** @return a builder with the defaults: provider {@code auto}, {@link #defaultLoops()} loops, the default idle */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return the default number of loops: the {@value #LOOPS_PROPERTY} system property, else one on machines with 1 to
     *     3 available processors and a quarter of them (at least one) on larger ones, so that busy-spinning loops leave
     *     cores to the application
     */
    public static int defaultLoops() {
        final String configured = System.getProperty(LOOPS_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            try {
                final int loops = Integer.parseInt(configured.trim());
                if (loops >= 1 && loops <= 256) {
                    return loops;
                }
            } catch (final NumberFormatException ignored) {
                // fall through to the message
            }
            throw new IllegalArgumentException("-D" + LOOPS_PROPERTY + "=" + configured + ": give a whole number of "
                + "event loops from 1 to 256");
        }
        final int processors = Runtime.getRuntime().availableProcessors();
        return processors < 4 ? 1 : Math.max(1, processors / 4);
    }

    /**
     * The process's shared runtime for a configuration: the one already running for the same provider, directory,
     * idle strategy and memory limit, or a new one. The caller holds a reference and must {@link #release()} it.
     */
    static RdmaRuntime shared(final RdmaConfig config) {
        final SharedKey key = new SharedKey(config.provider(), config.directory(), config.idle(),
            config.maxRegisteredBytes());
        synchronized (SHARED) {
            final RdmaRuntime running = SHARED.get(key);
            if (running != null && running.failure().isEmpty() && running.retain()) {
                return running;
            }
            // none, released, or broken: a broken one lives on until its users release it, but serves no one new
            final Builder builder = builder().provider(key.provider()).idleStrategy(key.idle());
            builder.directory = key.directory();
            builder.maxRegisteredBytes = key.maxRegisteredBytes();
            final RdmaRuntime created = open(builder, IdleStrategies.supplier(key.idle()), key.idle(), key);
            SHARED.put(key, created);
            return created;
        }
    }

    private record SharedKey(String provider, Path directory, String idle, long maxRegisteredBytes) {
    }

    /**
     * Opens a runtime: every runtime, the shared ones and those built, opens here, and so every client and server
     * passes here before it starts work. It first checks the JVM's options ({@link JvmFlags}), before anything of
     * Agrona initialises: a JVM without them would otherwise fail inside Agrona on some thread, and a
     * {@code connect()} or {@code bind()} never answer.
     */
    private static RdmaRuntime open(final Builder builder,
                                    final java.util.function.Supplier<org.agrona.concurrent.IdleStrategy> strategies,
                                    final String idle, final SharedKey key) {
        JvmFlags.require();
        final DeviceOptions.Builder options = DeviceOptions.builder();
        if (builder.directory != null) {
            options.directory(builder.directory);
        }
        if (builder.device != null) {
            options.deviceName(builder.device);
        }
        options.maxRegisteredBytes(builder.maxRegisteredBytes > 0 ? builder.maxRegisteredBytes
            : DEFAULT_MAX_REGISTERED_BYTES);
        final Path directory = builder.directory;
        final int loopCount = builder.loops;
        final boolean invoker = builder.invoker;
        final RdmaDevice device = RdmaProviders.named(builder.provider).open(options.build());
        DriverCounters counters = null;
        try {
            final String name = FileNames.sanitize(device.providerName() + "-" + ProcessHandle.current().pid() + "-"
                + INSTANCES.incrementAndGet());
            final Path countersDirectory = countersDirectory(directory);
            counters = DriverCounters.create(countersDirectory, name);
            // the counters files of runtimes whose process is gone (killed, or exited without disposing them)
            DriverCounters.removeAbandoned(countersDirectory, NAME);
            final EventLoopGroup loops = EventLoopGroup.start(name, device, loopCount, strategies, counters.errors(),
                LoopThread::new, invoker);
            return new RdmaRuntime(device, name, counters, loops, key, idle);
        } catch (final RuntimeException ex) {
            if (counters != null) {
                counters.close();
            }
            device.close();
            throw ex;
        }
    }

    /** Where the counters file goes: the configured directory, else the shared-memory default, else the temp dir. */
    private static Path countersDirectory(final Path configured) {
        if (configured != null) {
            return configured;
        }
        return privateCountersDirectory(PrivateDirectory.defaultPath());
    }

    /**
     * The counters directory gets the shared-memory directory's rules: created 0700, not a symbolic link, this user's
     * (another user's directory, or a link planted there, would receive or expose this process's counters).
     */
    static Path privateCountersDirectory(final Path directory) {
        try {
            return PrivateDirectory.open(directory, "the counters directory",
                "choose a writable directory (the runtime's directory, RdmaClient.directory / RdmaServer.directory)");
        } catch (final IllegalStateException ex) {
            throw new RdmaConnectionException(ex.getMessage(), ex.getCause() != null ? ex.getCause() : ex);
        }
    }

    /** @return the runtime's name ({@code <provider>-<pid>-<n>}), which its loop threads carry */
    public String name() {
        return name;
    }

    /** @return the provider of its device ({@code shm}, {@code verbs}) */
    public String provider() {
        return device.providerName();
    }

    /** @return how many event loops it has */
    public int loopCount() {
        return loops.size();
    }

    /** @return the idle strategy of its loops, as configured */
    public String idleStrategy() {
        return idle;
    }

    /** @return its loop threads (none in invoker mode) */
    public List<Thread> threads() {
        return loops.threads();
    }

    /**
     * @return the error that broke one of its event loops down, if one did: a VM error (a fault on memory that went
     *     away, no memory left) outside any one connection's work. Every connection of that loop ended with it at
     *     once, and the runtime accepts no new client or server; dispose of it and build another. Empty while it is
     *     sound. (The process's shared runtime is replaced by a new one for the next client or server.)
     */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(loops.failure());
    }

    /** @return the counters of every connection on this runtime */
    public RdmaCounters counters() {
        return RdmaCounters.of(counters);
    }

    /**
     * Invoker mode: runs one duty cycle of every loop on the calling thread: polls, delivers inbound messages to their
     * subscribers, posts what was sent. Call it from one thread at a time, in a loop of your own.
     *
     * @return the work done; 0 when there was none (idle as you see fit)
     * @throws IllegalStateException if the runtime runs its own threads
     */
    public int doWork() {
        return loops.invoke();
    }

    /** @return true if it was built in invoker mode */
    public boolean isInvoker() {
        return loops.isInvoker();
    }

    /** @return the loop a new connection is pinned to */
    EventLoop nextLoop() {
        return loops.next();
    }

    /** Takes a reference for a server or connection; false if the runtime is already released. */
    synchronized boolean retain() {
        if (released) {
            return false;
        }
        references++;
        return true;
    }

    /** Gives a reference back; the last one stops the loops and closes the counters and the device. */
    void release() {
        release(() -> { });
    }

    /**
     * Gives a reference back, then runs {@code after}: at once, or, when this was the last reference, once the
     * loops stopped and the device closed (on another thread if the caller is one of the loops, which cannot wait
     * for itself to stop).
     */
    void release(final Runnable after) {
        synchronized (this) {
            if (released || --references > 0) {
                after.run();
                return;
            }
            released = true;
        }
        if (sharedKey != null) {
            synchronized (SHARED) {
                SHARED.remove(sharedKey, this);
            }
        }
        if (loops.inAnyLoop() && !loops.isInvoker()) {
            Thread.ofPlatform().daemon().name("rdma-close-" + name).start(() -> {
                try {
                    close();
                } finally {
                    after.run();
                }
            });
        } else {
            try {
                close();
            } finally {
                after.run();
            }
        }
    }

    private void close() {
        try {
            loops.close();
        } finally {
            try {
                counters.close();
            } finally {
                device.close();
            }
        }
    }

    /** Gives up the reference its builder's caller holds. Idempotent. */
    @Override
    public void dispose() {
        synchronized (this) {
            if (disposedByOwner) {
                return;
            }
            disposedByOwner = true;
        }
        release();
    }

    @Override
    public synchronized boolean isDisposed() {
        return disposedByOwner || released;
    }

    @Override
    public String toString() {
        return "RdmaRuntime{" + name + ", " + loops.size() + " loops" + (loops.isInvoker() ? ", invoker" : "")
            + ", idle " + idle + '}';
    }

    /** A loop thread: a Reactor {@link NonBlocking} thread, so that {@code block()} on it fails at once. */
    private static final class LoopThread extends Thread implements NonBlocking {
        LoopThread(final Runnable body) {
            super(body);
        }
    }

    /** Configures a runtime of one's own. */
    public static final class Builder {
        private String provider = "auto";
        private Path directory;
        private String device;
        private int loops = defaultLoops();
        private String idle = RdmaConfig.defaultIdle();
        private long maxRegisteredBytes;
        private boolean invoker;

        private Builder() {
        }

        /** @param provider {@code auto}, {@code shm} or {@code verbs} */
        public Builder provider(final String provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
            return this;
        }

        /** @param directory where the shared-memory provider keeps its files (its peers' must be the same) */
        public Builder directory(final Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /**
         * @param name the device to open, as the provider names its devices ({@code ibv_devices}' names for
         *             {@code verbs}, e.g. {@code mlx5_0} or {@code rxe0}); by default the one the system property
         *             {@code rdma.verbs.device} names, else the first with an active port. A process that uses two
         *             adapters (or, in the Soft-RoCE guest, both nodes of its two-node set-up) builds a runtime per
         *             device and gives each server and client one with {@code runOn}.
         */
        public Builder device(final String name) {
            Objects.requireNonNull(name, "device");
            if (name.isBlank()) {
                throw new IllegalArgumentException("a device name is not blank");
            }
            this.device = name;
            return this;
        }

        /** @param count event loops, 1 to 256 (default {@link #defaultLoops()}) */
        public Builder loops(final int count) {
            if (count < 1 || count > 256) {
                throw new IllegalArgumentException("a runtime has 1 to 256 event loops, not " + count);
            }
            this.loops = count;
            return this;
        }

        /**
         * @param strategy the loops' idle strategy: {@code busy-spin}, {@code yielding}, {@code backoff} (also
         *                 {@code backoff:maxSpins=,maxYields=,minPark=,maxPark=}), {@code sleeping[:duration]}
         */
        public Builder idleStrategy(final String strategy) {
            IdleStrategies.parse(strategy); // fail here, not at build
            this.idle = strategy;
            return this;
        }

        /**
         * @param bytes the most memory the runtime registers at once, positive (default: half of the machine's physical
         *              memory; on verbs the locked-memory limit applies too, whichever is lower)
         */
        public Builder maxRegisteredBytes(final long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxRegisteredBytes must be positive: " + bytes);
            }
            this.maxRegisteredBytes = bytes;
            return this;
        }

        /** No threads: the application drives the loops with {@link RdmaRuntime#doWork()}. */
        public Builder invoker() {
            this.invoker = true;
            return this;
        }

        /**
         * @return the running runtime; the caller holds a reference ({@link RdmaRuntime#dispose()})
         * @throws IllegalStateException if this JVM was started without {@code --enable-native-access=ALL-UNNAMED}
         *     or {@code --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED}; the message names the missing one and
         *     where to put it
         */
        public RdmaRuntime build() {
            return open(this, IdleStrategies.supplier(idle), idle, null);
        }

        /**
         * Builds with loops idling on strategies that no name describes (for tests: a loop that sleeps a minute, longer
         * than a named strategy may, to show what wakes it).
         */
        RdmaRuntime build(final java.util.function.Supplier<org.agrona.concurrent.IdleStrategy> strategies,
                          final String description) {
            return open(this, strategies, description, null);
        }
    }

    /** @return this JVM's direct memory limit: {@code -XX:MaxDirectMemorySize}, or the heap's maximum by default */
    private static long maxDirectMemory() {
        try {
            final long bytes = Long.parseLong(java.lang.management.ManagementFactory
                .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                .getVMOption("MaxDirectMemorySize").getValue());
            return bytes > 0 ? bytes : Runtime.getRuntime().maxMemory();
        } catch (final RuntimeException ex) {
            return Runtime.getRuntime().maxMemory();
        }
    }
}
