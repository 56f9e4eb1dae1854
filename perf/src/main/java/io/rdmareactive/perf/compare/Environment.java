package io.rdmareactive.perf.compare;

import io.rdmareactive.RdmaEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

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

    /**
     * @return the machine, its RDMA stack and the project's commit ({@link RdmaEnvironment#describe()}), then this
     *     JVM's arguments and heap and the resolved version of every library the comparison uses
     */
    static Map<String, Object> describe() {
        final Map<String, Object> map = new LinkedHashMap<>(RdmaEnvironment.describe());
        map.put("jvmArguments", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        map.put("maxHeap", String.format(java.util.Locale.ROOT, "%.0f MiB",
            Runtime.getRuntime().maxMemory() / (double) (1 << 20)));
        final Map<String, String> libraries = new LinkedHashMap<>();
        for (final String library : LIBRARIES) {
            libraries.put(library, version(library));
        }
        map.put("libraries", libraries);
        return map;
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
}
