package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The docs' snippets are the compiled code: in docs/micronaut.md, a code block right after
 * {@code <!-- snippet: path#tag -->} must be exactly the lines between {@code tag::tag[]} and {@code end::tag[]} in
 * that file (a path from the repository root), less their common indentation. Edit the code, then copy it into the
 * page; this test names any block that differs and shows what it should be.
 */
class DocSnippetsTest {

    private static final Pattern SNIPPET = Pattern.compile(
        "<!-- snippet: ([^#\\s]+)#([\\w-]+) -->\\n```[a-z]*\\n(.*?)```", Pattern.DOTALL);

    @Test
    void theMicronautPageQuotesTheCompiledSamplesExactly() throws IOException {
        final Path root = Path.of("").toAbsolutePath().getParent();
        final String page = Files.readString(root.resolve("docs/micronaut.md"));
        final Matcher matcher = SNIPPET.matcher(page);
        final List<String> wrong = new ArrayList<>();
        int snippets = 0;
        while (matcher.find()) {
            snippets++;
            final String expected = tagged(root.resolve(matcher.group(1)), matcher.group(2));
            if (!expected.equals(matcher.group(3))) {
                wrong.add(matcher.group(1) + "#" + matcher.group(2) + " should read:\n" + expected);
            }
        }
        assertThat(snippets).as("snippets on the page").isGreaterThanOrEqualTo(8);
        assertThat(wrong).as("snippets that differ from the code").isEmpty();
    }

    /** @return the lines between the tag's markers, dedented, each ending with a newline */
    static String tagged(final Path file, final String tag) throws IOException {
        final List<String> lines = Files.readAllLines(file);
        final int start = indexOf(lines, "tag::" + tag + "[]", file);
        final int end = indexOf(lines, "end::" + tag + "[]", file);
        final List<String> body = lines.subList(start + 1, end);
        final int indent = body.stream().filter(line -> !line.isBlank())
            .mapToInt(line -> line.length() - line.stripLeading().length()).min().orElse(0);
        final StringBuilder text = new StringBuilder();
        for (final String line : body) {
            text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return text.toString();
    }

    private static int indexOf(final List<String> lines, final String marker, final Path file) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(marker)) {
                return i;
            }
        }
        throw new AssertionError(file + " has no " + marker);
    }
}
