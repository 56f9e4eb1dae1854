package io.rdmareactive.perf.compare;

import io.rdmareactive.provider.verbs.RdmaInfo;
import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.RdmaProvider;
import io.rdmareactive.spi.RdmaProviders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/** The machine, the JVM and the libraries a run measured, for the report's environment table. */
final class Environment {

    /** group:artifact of every library whose version the report states. */
    static final List<String> LIBRARIES = List.of("io.rdmareactive:rdma-reactive-core",
        "io.rdmareactive:rdma-reactive-ring-buffers", "io.aeron:aeron-client",
        "io.aeron:aeron-driver", "org.agrona:agrona", "io.projectreactor:reactor-core",
        "io.projectreactor.netty:reactor-netty-core", "io.netty:netty-transport", "org.hdrhistogram:HdrHistogram",
        "org.openjdk.jmh:jmh-core", "org.knowm.xchart:xchart", "me.tongfei:progressbar", "info.picocli:picocli");

    private Environment() {
    }

    static Map<String, Object> describe() {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("cpuModel", cpuModel());
        map.put("cores", Runtime.getRuntime().availableProcessors());
        map.put("cpusAllowed", statusField("Cpus_allowed_list"));
        final long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
        map.put("memory", String.format(java.util.Locale.ROOT, "%.1f GiB", memory / (double) (1L << 30)));
        map.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"));
        map.put("os", osName());
        map.put("jdk", System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version") + " ("
            + System.getProperty("java.vm.name") + ")");
        map.put("jvmArguments", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        map.put("maxHeap", String.format(java.util.Locale.ROOT, "%.0f MiB",
            Runtime.getRuntime().maxMemory() / (double) (1 << 20)));
        final Map<String, String> libraries = new LinkedHashMap<>();
        for (final String library : LIBRARIES) {
            libraries.put(library, version(library));
        }
        map.put("libraries", libraries);
        final Map<String, String> providers = new LinkedHashMap<>();
        for (final RdmaProvider provider : RdmaProviders.all()) {
            final Availability availability = provider.availability();
            providers.put(provider.name(), (availability.available() ? "available: " : "unavailable: ")
                + availability.reason());
        }
        map.put("rdmaProviders", providers);
        final String devices = rdmaInfo();
        map.put("rdmaDevices", devices);
        map.put("rdmaCore", packageVersion("rdma-core") + " (libibverbs1 " + packageVersion("libibverbs1")
            + ", ibverbs-providers " + packageVersion("ibverbs-providers") + ")");
        map.put("perftest", packageVersion("perftest"));
        map.put("emulation", emulation(devices));
        map.put("commit", commit());
        return map;
    }

    /** @return the repository's commit the run was made from (with "+changes" when the tree differs), or why not */
    static String commit() {
        final String head = run("git", "rev-parse", "HEAD");
        if (head == null || head.isBlank()) {
            return "unknown (not run from a git checkout of the project)";
        }
        final String changes = run("git", "status", "--porcelain", "--untracked-files=no");
        return head.trim() + (changes != null && !changes.isBlank() ? "+changes" : "");
    }

    /** @return the Debian package's installed version, or "not installed" */
    static String packageVersion(final String name) {
        final String version = run("dpkg-query", "-W", "-f=${Version}", name);
        return version == null || version.isBlank() ? "not installed" : version.trim();
    }

    /**
     * @return whether what was measured ran under emulation: a virtual machine (the CPU's hypervisor flag) and a
     *     software RDMA device (Soft-RoCE {@code rxe}, soft-iWARP {@code siw}) or none
     */
    static String emulation(final String devices) {
        boolean hypervisor;
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            hypervisor = lines.anyMatch(line -> line.startsWith("flags") && line.contains(" hypervisor"));
        } catch (final IOException | RuntimeException ex) {
            hypervisor = false;
        }
        final String machine = hypervisor ? "a virtual machine (the CPU reports a hypervisor)" : "bare metal, as far "
            + "as the CPU tells";
        final String rdma = devices.contains("\n  none:") ? "no RDMA device: shared memory only"
            : devices.contains("\n  rxe") ? "RDMA devices emulated in software (Soft-RoCE, rxe)"
            : devices.contains("\n  siw") ? "RDMA devices emulated in software (soft-iWARP, siw)"
            : "RDMA adapters (hardware)";
        return machine + "; " + rdma;
    }

    /** @return what the command printed, or null if it could not run or failed within 5 s */
    private static String run(final String... command) {
        try {
            final Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
            process.getOutputStream().close();
            final byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS) || process.exitValue() != 0) {
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

    static String cpuModel() {
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

    static String statusField(final String field) {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
            return lines.filter(line -> line.startsWith(field + ":")).map(line -> line.substring(field.length() + 1)
                .trim()).findFirst().orElse("unknown");
        } catch (final IOException | RuntimeException ex) {
            return "unknown";
        }
    }

    /**
     * @return the library's version as the build resolved it (the list maven-dependency-plugin wrote into the jar),
     *     else as Maven recorded it in the library's own jar, else "unknown"
     */
    static String version(final String library) {
        try (InputStream in = Environment.class.getResourceAsStream("libraries.txt")) {
            if (in != null) {
                final String listed = versionIn(new String(in.readAllBytes(), StandardCharsets.UTF_8), library);
                if (listed != null) {
                    return listed;
                }
            }
        } catch (final IOException ex) {
            return "unknown: " + ex.getMessage();
        }
        final String[] parts = library.split(":");
        final String resource = "META-INF/maven/" + parts[0] + "/" + parts[1] + "/pom.properties";
        try (InputStream in = Environment.class.getClassLoader().getResourceAsStream(resource)) {
            if (in != null) {
                final Properties properties = new Properties();
                properties.load(in);
                return properties.getProperty("version", "unknown");
            }
        } catch (final IOException ex) {
            return "unknown: " + ex.getMessage();
        }
        return "unknown";
    }

    /** @return the version of {@code group:artifact} in a {@code dependency:list} output, or null */
    static String versionIn(final String list, final String library) {
        for (final String line : list.split("\\R")) {
            final String[] fields = line.trim().split("\\s+")[0].split(":");
            // group:artifact:type[:classifier]:version:scope
            if (fields.length >= 5 && (fields[0] + ":" + fields[1]).equals(library)) {
                return fields[fields.length - 2];
            }
        }
        return null;
    }

    /** @return what core's {@code rdma-info} prints about the providers and the verbs devices */
    static String rdmaInfo() {
        try {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
                RdmaInfo.print(out);
            }
            return bytes.toString(StandardCharsets.UTF_8).trim();
        } catch (final RuntimeException | LinkageError ex) {
            return "rdma-info could not run: " + ex;
        }
    }
}
