package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs' code is the compiled code. How it works, for whoever edits a page or the code a page quotes:
 *
 * <ol>
 *   <li>Java code, and configuration a build or a test reads (YAML, properties, XML), lives in a source the build
 *       compiles and, where it runs something, a test runs: most in
 *       {@code samples/src/main/java/io/rdmareactive/samples/docs}. Mark what a page shows with
 *       {@code // tag::name[]} and {@code // end::name[]} ({@code # tag::name[]} in YAML,
 *       {@code <!-- tag::name[] -->} in XML). A tag may mark several regions, joined by an empty line (import lines
 *       run on): mark the imports the snippet uses as well, and no others, so that the block can be pasted.</li>
 *   <li>On the page, write {@code <!-- snippet: path/from/the/repository/root#name -->} on the line right before the
 *       block's opening fence, and copy the tagged text in, less its common indentation.</li>
 *   <li>Run this test: it names every block that differs from its source, with what it should read. Edit the code,
 *       run the test, paste what it shows.</li>
 *   <li>Every other block names its language, which must not be one that is quoted ({@value #QUOTED_LANGUAGES}):
 *       {@code text} for output, tables and diagrams, {@code console} for a prompt and what it prints, {@code bash}
 *       for commands, {@code kotlin} for a Gradle build file.</li>
 * </ol>
 *
 * <p>The pages are README.md and every {@code docs/*.md}: a new page is covered as soon as it exists.
 */
class DocSnippetsTest {

    /** The languages a page may show only as quoted snippets. */
    static final String QUOTED_LANGUAGES = "java, yaml, yml, properties, xml";

    private static final Set<String> QUOTED = Set.of(QUOTED_LANGUAGES.split(", "));

    private static final Pattern IMPORT = Pattern.compile("(?m)^import [\\w.]*\\.(\\w+);$");

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void everyQuotedBlockReadsAsItsSource() throws IOException {
        final List<String> wrong = new ArrayList<>();
        for (final CodeBlock block : blocks()) {
            if (block.quoted()) {
                final String expected = TaggedRegion.text(ROOT.resolve(block.source()), block.tag());
                if (!expected.equals(block.text())) {
                    wrong.add(block.where() + ": the block quoting " + block.source() + "#" + block.tag()
                        + " should read:\n" + expected);
                }
            }
        }
        assertThat(wrong).as("blocks that differ from their sources").isEmpty();
    }

    @Test
    void everyBlockIsQuotedOrNamesALanguageThatNeedsNoSource() throws IOException {
        final List<String> wrong = new ArrayList<>();
        for (final CodeBlock block : blocks()) {
            if (block.quoted()) {
                continue;
            }
            if (block.language().isEmpty()) {
                wrong.add(block.where() + ": a code block without a language: name it (```text for output, tables"
                    + " and diagrams, ```console for a prompt and its output, ```bash for commands), or quote it"
                    + " from a compiled source with <!-- snippet: path#tag --> on the line before");
            } else if (QUOTED.contains(block.language())) {
                wrong.add(block.where() + ": a " + block.language() + " block must be quoted from a source the"
                    + " build compiles or a test loads: mark it there with tag::name[] and end::name[] (imports"
                    + " included) and write <!-- snippet: path/from/the/root#name --> on the line before; it should"
                    + " then read as that region does");
            }
        }
        assertThat(wrong).as("code blocks that no source backs").isEmpty();
    }

    @Test
    void everyJavaSnippetShowsItsImports() throws IOException {
        final List<String> wrong = new ArrayList<>();
        for (final CodeBlock block : blocks()) {
            if (!block.quoted() || !block.language().equals("java")) {
                continue;
            }
            if (!block.text().startsWith("import ")) {
                wrong.add(block.where() + ": " + block.source() + "#" + block.tag() + " starts without its imports:"
                    + " mark the import lines it needs with the same tag");
            }
            final String code = IMPORT.matcher(block.text()).replaceAll("");
            final Matcher imported = IMPORT.matcher(block.text());
            while (imported.find()) {
                if (!Pattern.compile("\\b" + imported.group(1) + "\\b").matcher(code).find()) {
                    wrong.add(block.where() + ": " + block.source() + "#" + block.tag() + " imports "
                        + imported.group(1) + " but does not use it: leave that import out of the tag");
                }
            }
        }
        assertThat(wrong).as("Java snippets that cannot be pasted as they are").isEmpty();
    }

    @Test
    void theMicronautPageQuotesTheSamplesAndTheirConfiguration() throws IOException {
        final List<CodeBlock> quoted = CodeBlock.of(ROOT, Path.of("docs/micronaut.md")).stream()
            .filter(CodeBlock::quoted).toList();
        assertThat(quoted).as("quoted blocks on docs/micronaut.md").hasSizeGreaterThanOrEqualTo(9)
            .extracting(CodeBlock::source)
            .contains("samples/src/main/resources/application-pricing.yml",
                "samples/src/main/resources/application-orders.yml");
    }

    /** @return every block of README.md and of every page in docs/ */
    static List<CodeBlock> blocks() throws IOException {
        final List<Path> pages = new ArrayList<>();
        pages.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(path -> path.getFileName().toString().endsWith(".md")).sorted()
                .forEach(path -> pages.add(ROOT.relativize(path)));
        }
        final List<CodeBlock> blocks = new ArrayList<>();
        for (final Path page : pages) {
            blocks.addAll(CodeBlock.of(ROOT, page));
        }
        assertThat(blocks).as("code blocks on README.md and docs/*.md").isNotEmpty();
        return blocks;
    }
}
