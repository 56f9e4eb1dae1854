package io.rdmareactive.provider.verbs;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmareactive.spi.Availability;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the tests tagged {@code verbs} run: on a machine with an RDMA device whose interface address is in the
 * environment variable {@value #HOST_VARIABLE} (the Soft-RoCE guest sets it; see docs/softroce.md). Elsewhere they
 * are skipped with the reason.
 */
public final class VerbsTestEnvironment {

    /** The environment variable holding the IPv4 address of the RDMA device's interface. */
    public static final String HOST_VARIABLE = "RR_VERBS_HOST";

    private static final AtomicInteger PORTS = new AtomicInteger(20_000 + (int) (ProcessHandle.current().pid() % 400)
        * 100);

    private VerbsTestEnvironment() {
    }

    /** Skips the calling test unless a verbs device is available and {@value #HOST_VARIABLE} names its address. */
    public static void assumeVerbs() {
        final String reason = unavailableReason();
        assumeTrue(reason == null, reason);
    }

    /** @return why the tests tagged {@code verbs} cannot run here, or null if they can */
    public static String unavailableReason() {
        final String host = System.getenv(HOST_VARIABLE);
        if (host == null || host.isBlank()) {
            return "no RDMA test host: set " + HOST_VARIABLE + " to the IPv4 address of an RDMA interface (softroce/run "
                + "does, inside its guest)";
        }
        final Availability availability = new VerbsProvider().availability();
        return availability.available() ? null : "the verbs provider is not available here: " + availability.reason();
    }

    /** @return the address of the RDMA interface */
    public static String host() {
        return System.getenv(HOST_VARIABLE);
    }

    /** @return {@code host:port} with a port no other address of this JVM has had */
    public static String uniqueAddress() {
        return host() + ":" + PORTS.getAndIncrement();
    }
}
