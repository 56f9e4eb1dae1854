package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The pom README.md quotes for a project that uses rdma-reactive ({@code docs/consumer-pom.xml} in the test resources)
 * agrees with this build: it imports the BOM at this version, names only libraries the BOM manages, and gives the
 * exec plugin's JVM the two options every rdma-reactive JVM needs, before {@code -classpath}.
 */
class ConsumerPomTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void theQuotedPomImportsThisBomAndNamesOnlyManagedLibraries() throws Exception {
        final Element consumer = read(ROOT.resolve("samples/src/test/resources/docs/consumer-pom.xml"));
        final Element bom = read(ROOT.resolve("bom/pom.xml"));
        final Element imported = child(child(consumer, "dependencyManagement"), "dependencies");
        final Element bomImport = child(imported, "dependency");
        assertThat(text(bomImport, "groupId")).isEqualTo(text(bom, "groupId"));
        assertThat(text(bomImport, "artifactId")).isEqualTo(text(bom, "artifactId"));
        assertThat(text(bomImport, "version")).as("the BOM's version in the quoted pom").isEqualTo(text(bom, "version"));
        assertThat(text(bomImport, "type")).isEqualTo("pom");
        assertThat(text(bomImport, "scope")).isEqualTo("import");

        final List<String> managed = new ArrayList<>();
        for (final Element dependency : children(child(child(bom, "dependencyManagement"), "dependencies"),
            "dependency")) {
            managed.add(text(dependency, "artifactId"));
        }
        final List<Element> used = children(child(consumer, "dependencies"), "dependency");
        assertThat(used).isNotEmpty();
        for (final Element dependency : used) {
            assertThat(managed).as("libraries the BOM manages").contains(text(dependency, "artifactId"));
            assertThat(dependency.getElementsByTagName("version").getLength())
                .as("a version for " + text(dependency, "artifactId") + ", which the BOM should give").isZero();
        }
    }

    @Test
    void theExecPluginPassesTheBuildsJvmOptionsBeforeTheClassPath() throws Exception {
        final Element consumer = read(ROOT.resolve("samples/src/test/resources/docs/consumer-pom.xml"));
        final Element root = read(ROOT.resolve("pom.xml"));
        final String flags = text(child(root, "properties"), "rr.jvm.flags");
        final List<String> options = List.of(flags.replace("--add-exports ", "--add-exports=").split("\\s+"));
        final Element plugin = child(child(child(consumer, "build"), "plugins"), "plugin");
        assertThat(text(plugin, "artifactId")).isEqualTo("exec-maven-plugin");
        final List<String> arguments = new ArrayList<>();
        for (final Element argument : children(child(child(plugin, "configuration"), "arguments"), "argument")) {
            arguments.add(argument.getTextContent().strip());
        }
        assertThat(arguments).as("the exec plugin's arguments").containsSubsequence(options.get(0), "-classpath")
            .containsSubsequence(options.get(1), "-classpath").containsAll(options);
    }

    private static Element read(final Path pom) throws Exception {
        final Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        return document.getDocumentElement();
    }

    private static Element child(final Element parent, final String name) {
        final List<Element> found = children(parent, name);
        assertThat(found).as(parent.getTagName() + " has one " + name).hasSize(1);
        return found.get(0);
    }

    private static List<Element> children(final Element parent, final String name) {
        final List<Element> found = new ArrayList<>();
        final NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE && nodes.item(i).getNodeName().equals(name)) {
                found.add((Element) nodes.item(i));
            }
        }
        return found;
    }

    private static String text(final Element parent, final String name) {
        return child(parent, name).getTextContent().strip();
    }
}
