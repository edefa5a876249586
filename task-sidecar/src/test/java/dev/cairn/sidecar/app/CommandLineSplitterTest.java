package dev.cairn.sidecar.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CommandLineSplitterTest {

    @Test
    void shouldSeparateWordsWhenThereIsWhiteSpace() {
        assertThat(CommandLineSplitter.split("  /bin/snap   --id\t7 ")).containsExactly("/bin/snap", "--id", "7");
    }

    @Test
    void shouldKeepWhiteSpaceInsideAWordWhenQuotedAndAllowEmptyQuotes() {
        assertThat(CommandLineSplitter.split("sh -c \"echo '{}' > out\" '' x\"y z\""))
                .containsExactly("sh", "-c", "echo '{}' > out", "", "xy z");
    }

    @Test
    void shouldEscapeWithABackslashWhenOutsideSingleQuotesOnly() {
        assertThat(CommandLineSplitter.split("a\\ b 'c\\d' \"e\\\"f\"")).containsExactly("a b", "c\\d", "e\"f");
    }

    @Test
    void shouldRefuseTheLineWhenAQuoteIsUnclosedOrABackslashTrails() {
        assertThatThrownBy(() -> CommandLineSplitter.split("run \"x")).hasMessageContaining("double quote");
        assertThatThrownBy(() -> CommandLineSplitter.split("run 'x")).hasMessageContaining("single quote");
        assertThatThrownBy(() -> CommandLineSplitter.split("run \\")).hasMessageContaining("backslash");
    }
}
