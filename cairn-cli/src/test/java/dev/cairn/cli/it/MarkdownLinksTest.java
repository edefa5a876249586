package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cli.it.MarkdownLinks.Link;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownLinksTest {

    @Test
    void shouldSlugHeadingsAsGitHubDoesWhenTheyHoldCodePunctuationAndRepeats() {
        List<String> page = List.of("# Command line (`cairn`)", "## Auditing the journal (`cairn audit`)",
                "## GET /jobs/{jobId}/checkpoints/latest-completed", "## Flink's checkpoint coordinator, behaviour",
                "## End to end, on a real broker", "## Notes", "## Notes", "```bash", "# not a heading", "```");

        assertThat(MarkdownLinks.anchors(page)).containsExactly("command-line-cairn",
                "auditing-the-journal-cairn-audit", "get-jobsjobidcheckpointslatest-completed",
                "flinks-checkpoint-coordinator-behaviour", "end-to-end-on-a-real-broker", "notes", "notes-1");
    }

    @Test
    void shouldFindLinksImagesAndAddressesWhenTheyAreProseNotCode() {
        List<String> page = List.of("See [the manual](docs/cli.md#keys) and ![a plot](docs/performance/e2e.png).",
                "Not `[code](no.md)` nor `http://localhost:8081/`, but <https://example.org> and https://x.example/y.",
                "```text", "[fenced](no.md) http://localhost:8081", "```", "[ref]: ../CHANGELOG.md",
                "A span `over", "two lines [no](no.md)` ends.");

        assertThat(MarkdownLinks.links(page)).containsExactly(new Link(1, "docs/cli.md#keys"),
                new Link(1, "docs/performance/e2e.png"), new Link(2, "https://example.org"),
                new Link(2, "https://x.example/y."), new Link(6, "../CHANGELOG.md"));
    }

    @Test
    void shouldTellExternalLinksWhenTheyHaveAScheme() {
        assertThat(new Link(1, "https://flink.apache.org").isExternal()).isTrue();
        assertThat(new Link(1, "mailto:ops@example.org").isExternal()).isTrue();
        assertThat(new Link(1, "docs/rest.md#get-jobs").isExternal()).isFalse();
        assertThat(new Link(1, "#the-manual").isExternal()).isFalse();
    }
}
