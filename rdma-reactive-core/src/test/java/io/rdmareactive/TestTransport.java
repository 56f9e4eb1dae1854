package io.rdmareactive;

import io.rdmareactive.provider.verbs.VerbsTestEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The transport an API test class runs on, given to it explicitly: the provider its servers and clients use, and the
 * factor its message counts are scaled by (below 1 on emulated hardware). A class that runs on both providers takes
 * one in its constructor from {@link TestTransportResolver}: {@link #SHM} unless the class is {@link OnVerbs}.
 *
 * @param provider the provider's name: {@code shm} or {@code verbs}
 * @param scale the factor message counts are scaled by; 1 leaves them
 */
record TestTransport(String provider, double scale) {

    /** Shared memory, counts as written: every API test on the host. */
    static final TestTransport SHM = new TestTransport("shm", 1);

    /** The child JVM's option that names its provider ({@link #childJvmOptions()}, {@link #ofThisJvm()}). */
    private static final String PROVIDER_OPTION = "rr.test.provider";
    /** The child JVM's option that carries the scale. */
    private static final String SCALE_OPTION = "rr.test.scale";

    /**
     * The liveness timeout of the servers and clients made here, where a test does not set its own: the library's
     * default unless {@code -Drr.test.livenessSeconds} says otherwise (the Soft-RoCE guest, where a thread of a
     * loaded emulated machine can stand still for seconds).
     */
    private static final long LIVENESS_SECONDS = Long.getLong("rr.test.livenessSeconds", 0);

    /** @return real verbs, message counts scaled by {@code scale} */
    static TestTransport verbs(final double scale) {
        return new TestTransport("verbs", scale);
    }

    /** @return the transport a child JVM was started with ({@link #childJvmOptions()}); {@link #SHM} without */
    static TestTransport ofThisJvm() {
        return new TestTransport(System.getProperty(PROVIDER_OPTION, SHM.provider()),
            Double.parseDouble(System.getProperty(SCALE_OPTION, "1")));
    }

    boolean isVerbs() {
        return "verbs".equals(provider);
    }

    /** @return the JVM options that start a child JVM on this transport ({@link #ofThisJvm()} reads them there) */
    List<String> childJvmOptions() {
        return List.of("-D" + PROVIDER_OPTION + "=" + provider, "-D" + SCALE_OPTION + "=" + scale);
    }

    /** @return a fresh address, so that thread names and socket files of one test never meet another's */
    String uniqueAddress(final String prefix) {
        if (isVerbs()) {
            return VerbsTestEnvironment.uniqueAddress();
        }
        return prefix + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
    }

    RdmaServer server(final Path directory, final String address) {
        final RdmaServer server = RdmaServer.create().provider(provider).directory(directory).address(address)
            .idleStrategy("backoff");
        return LIVENESS_SECONDS > 0 ? server.liveness(Duration.ofSeconds(1), Duration.ofSeconds(LIVENESS_SECONDS))
            : server;
    }

    RdmaClient client(final Path directory, final String address) {
        final RdmaClient client = RdmaClient.create().provider(provider).directory(directory).address(address)
            .idleStrategy("backoff");
        return LIVENESS_SECONDS > 0 ? client.liveness(Duration.ofSeconds(1), Duration.ofSeconds(LIVENESS_SECONDS))
            : client;
    }

    /** @return {@code count} scaled by {@link #scale()}, at least {@code floor} */
    long scaled(final long count, final long floor) {
        return Math.max(floor, (long) (count * scale));
    }
}
