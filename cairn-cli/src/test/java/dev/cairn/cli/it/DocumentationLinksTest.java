package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cli.it.MarkdownLinks.Link;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation's links work on a code host: every relative link of {@code README.md}, {@code CHANGELOG.md}
 * and {@code docs/**}{@code /*.md} names a file or directory of the repository, and an {@code #anchor} into a
 * Markdown file names one of its headings; no link leaves the repository. No broker: it reads files.
 */
class DocumentationLinksTest {

    private static final Path ROOT = DocumentedCommands.ROOT;

    @Test
    void shouldResolveEveryRelativeLinkWhenItNamesAFileAndAHeadingOfTheRepository() {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages()) {
            for (Link link : MarkdownLinks.links(read(page))) {
                if (!link.isExternal()) {
                    checked++;
                    problem(page, link.target()).ifPresent(p -> broken.add(ROOT.relativize(page) + " line "
                            + link.line() + ": " + link.target() + " (" + p + ")"));
                }
            }
        }

        assertThat(checked).as("relative links checked").isGreaterThan(50);
        assertThat(broken).as("links that do not resolve").isEmpty();
    }

    @Test
    void shouldLinkNothingOutsideTheRepositoryWhenTheDocumentationIsRead() {
        List<String> external = pages().stream().flatMap(page -> MarkdownLinks.links(read(page)).stream()
                .filter(Link::isExternal).map(link -> ROOT.relativize(page) + " line " + link.line() + ": "
                        + link.target())).toList();

        assertThat(external).as("links to outside the repository").isEmpty();
    }

    @Test
    void shouldCheckTheReadmeTheChangelogAndEveryDocsPage() {
        assertThat(pages().stream().map(ROOT::relativize).map(Path::toString)).contains("README.md",
                "CHANGELOG.md", "docs/architecture.md", "docs/performance/e2e.md");
    }

    /** Why {@code target}, written on {@code page}, does not resolve; empty when it does. */
    private static Optional<String> problem(Path page, String target) {
        int hash = target.indexOf('#');
        String file = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = (file.isEmpty() ? page : page.getParent().resolve(file)).normalize();
        if (!resolved.startsWith(ROOT)) {
            return Optional.of("outside the repository");
        }
        if (!Files.exists(resolved)) {
            return Optional.of("no such file");
        }
        if (anchor != null && resolved.toString().endsWith(".md")
                && !MarkdownLinks.anchors(read(resolved)).contains(anchor)) {
            return Optional.of("no heading with anchor #" + anchor + " in " + ROOT.relativize(resolved));
        }
        return Optional.empty();
    }

    private static List<Path> pages() {
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
            return pages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
