package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The one runner of the samples knows every name the README, the docs and the samples' own comments tell users to run. */
class SamplesTest {

    private static final Pattern RUN = Pattern.compile("-Dsample=([a-z][a-z-]*)");

    @Test
    void everySampleTheDocsRunIsOneTheRunnerKnows() throws IOException {
        final Path root = Path.of("").toAbsolutePath().getParent();
        final List<Path> texts = new ArrayList<>();
        texts.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).forEach(texts::add);
        }
        try (Stream<Path> sources = Files.walk(root.resolve("samples/src/main/java"))) {
            sources.filter(path -> path.toString().endsWith(".java")).forEach(texts::add);
        }
        final TreeSet<String> named = new TreeSet<>();
        for (final Path text : texts) {
            final Matcher matcher = RUN.matcher(Files.readString(text));
            while (matcher.find()) {
                named.add(matcher.group(1));
            }
        }
        assertThat(named).as("samples the docs tell users to run").contains("ping-pong", "pricing-service");
        assertThat(Samples.names()).containsAll(named);
    }

    @Test
    void theUsageListsEverySampleAndNamesAWrongOne() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Samples.usage("pingpong", new PrintStream(bytes, true, StandardCharsets.UTF_8));
        final String usage = bytes.toString(StandardCharsets.UTF_8);
        assertThat(usage).contains("no sample called 'pingpong'");
        for (final String name : Samples.names()) {
            assertThat(usage).contains("  " + name + " ");
        }
    }
}
