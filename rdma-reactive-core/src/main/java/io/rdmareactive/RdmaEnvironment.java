package io.rdmareactive;

import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.RdmaProvider;
import io.rdmareactive.spi.RdmaProviders;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a measurement ran on, to be recorded next to its figures so that results of different machines, kernels,
 * adapters and commits can be told apart: the CPU, cores, memory, kernel and JDK; each provider's availability and
 * the devices it sees (for verbs: each device's firmware and each port's link layer, MTU and speed); the installed
 * rdma-core and perftest packages; whether the run was emulated (a virtual machine; Soft-RoCE or soft-iWARP devices);
 * and the project's commit when run from a checkout of it.
 */
public final class RdmaEnvironment {

    private RdmaEnvironment() {
    }

    /**
     * Describes this machine now. Runs a few short commands ({@code git}, {@code dpkg-query}); never throws: what
     * cannot be found is described as such.
     *
     * @return the description, in a stable order: cpuModel, cores, cpusAllowed, memory, kernel, os, jdk,
     *     rdmaProviders, rdmaDevices, rdmaCore, perftest, emulation, commit
     */
    public static Map<String, String> describe() {
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("cpuModel", cpuModel());
        map.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        map.put("cpusAllowed", statusField("Cpus_allowed_list"));
        final long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
        map.put("memory", String.format(Locale.ROOT, "%.1f GiB", memory / (double) (1L << 30)));
        map.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"));
        map.put("os", osName());
        map.put("jdk", System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version") + " ("
            + System.getProperty("java.vm.name") + ")");
        final StringBuilder providers = new StringBuilder();
        final StringBuilder devices = new StringBuilder();
        for (final RdmaProvider provider : RdmaProviders.all()) {
            final Availability availability = provider.availability();
            providers.append(providers.isEmpty() ? "" : "; ").append(provider.name())
                .append(availability.available() ? " available: " : " unavailable: ").append(availability.reason());
            final String described = provider.describeDevices();
            if (!described.isBlank()) {
                devices.append(devices.isEmpty() ? "" : "\n").append(provider.name()).append(":\n").append(described);
            }
        }
        map.put("rdmaProviders", providers.toString());
        map.put("rdmaDevices", devices.isEmpty() ? "none" : devices.toString());
        map.put("rdmaCore", packageVersion("rdma-core") + " (libibverbs1 " + packageVersion("libibverbs1")
            + ", ibverbs-providers " + packageVersion("ibverbs-providers") + ")");
        map.put("perftest", packageVersion("perftest"));
        map.put("emulation", emulation(devices.toString()));
        map.put("commit", commit());
        return Collections.unmodifiableMap(map);
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(line -> line.startsWith("model name")).map(line -> line.substring(
                line.indexOf(':') + 1).trim()).findFirst().orElse(System.getProperty("os.arch"));
        } catch (final IOException | RuntimeException ex) {
            return System.getProperty("os.arch");
        }
    }

    private static String osName() {
        try (Stream<String> lines = Files.lines(Path.of("/etc/os-release"))) {
            return lines.filter(line -> line.startsWith("PRETTY_NAME=")).map(line -> line.substring(12)
                .replace("\"", "")).findFirst().orElse(System.getProperty("os.name"));
        } catch (final IOException | RuntimeException ex) {
            return System.getProperty("os.name");
        }
    }

    private static String statusField(final String field) {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
            return lines.filter(line -> line.startsWith(field + ":")).map(line -> line.substring(field.length() + 1)
                .trim()).findFirst().orElse("unknown");
        } catch (final IOException | RuntimeException ex) {
            return "unknown";
        }
    }

    /** @return the repository's commit the process runs from (with "+changes" when the tree differs), or why not */
    private static String commit() {
        final String head = run("git", "rev-parse", "HEAD");
        if (head == null || head.isBlank()) {
            return GitHead.read(Path.of("").toAbsolutePath())
                .map(commit -> commit + " (read from .git: no git command here, so changes are not known)")
                .orElse("unknown (not run from a git checkout of the project)");
        }
        final String changes = run("git", "status", "--porcelain", "--untracked-files=no");
        return head.trim() + (changes != null && !changes.isBlank() ? "+changes" : "");
    }

    /** @return the Debian package's installed version, or "not installed" */
    private static String packageVersion(final String name) {
        final String version = run("dpkg-query", "-W", "-f=${Version}", name);
        return version == null || version.isBlank() ? "not installed" : version.trim();
    }

    /** @return whether the run is emulated: a virtual machine (the CPU's hypervisor flag), software RDMA devices */
    private static String emulation(final String devices) {
        boolean hypervisor;
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            hypervisor = lines.anyMatch(line -> line.startsWith("flags") && line.contains(" hypervisor"));
        } catch (final IOException | RuntimeException ex) {
            hypervisor = false;
        }
        final String machine = hypervisor ? "a virtual machine (the CPU reports a hypervisor)"
            : "bare metal, as far as the CPU tells";
        final String rdma = devices.isEmpty() || devices.contains("\n  none:") ? "no RDMA device: shared memory only"
            : devices.contains("\n  rxe") ? "RDMA devices emulated in software (Soft-RoCE, rxe)"
            : devices.contains("\n  siw") ? "RDMA devices emulated in software (soft-iWARP, siw)"
            : "RDMA adapters (hardware)";
        return machine + "; " + rdma;
    }

    /** @return what the command printed, or null if it could not run or failed within 5 s */
    private static String run(final String... command) {
        try {
            final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
            process.getOutputStream().close();
            final byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(5, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                return null;
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (final IOException ex) {
            return null;
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
