package dev.cairn.coordinator.rest.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tokens file: its format, the scopes it gives, and how it names what is malformed. */
class BearerTokensTest {

    private static final String OPS = "Zm9vYmFyYmF6cXV4cXV1eA";
    private static final String CI = "c2VjcmV0LWZvci1jaS1vbmx5";

    @TempDir
    Path dir;

    @Test
    void shouldReadPrincipalsTheirTokensAndTheirJobs() throws Exception {
        BearerTokens tokens = BearerTokens.load(file("# operators\nops.token=" + OPS + "\n"
                + "ci.token = " + CI + "\nci.jobs = ci-*, nightly-report\n"));

        assertThat(tokens.principals()).containsExactly("ci", "ops");
        assertThat(tokens.find(OPS)).hasValueSatisfying(holder -> {
            assertThat(holder.principal()).isEqualTo("ops");
            assertThat(holder.scope().covers("anything")).isTrue();
        });
        assertThat(tokens.find(CI)).hasValueSatisfying(holder -> {
            assertThat(holder.scope().covers("ci-42")).isTrue();
            assertThat(holder.scope().covers("nightly-report")).isTrue();
            assertThat(holder.scope().covers("nightly-report-2")).isFalse();
            assertThat(holder.scope().covers("prod")).isFalse();
        });
        assertThat(tokens.find(OPS + "x")).isEmpty();
        assertThat(tokens.find("")).isEmpty();
    }

    @Test
    void shouldNameTheFileAndTheKeyOfAnUnknownKey() throws Exception {
        Path file = file("ops.token=" + OPS + "\nops.secret=" + CI + "\n");

        assertThatThrownBy(() -> BearerTokens.load(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tokens file " + file
                        + ": key 'ops.secret' is neither <principal>.token nor <principal>.jobs");
    }

    @Test
    void shouldRefuseAShortTokenWithoutShowingIt() throws Exception {
        Path file = file("ops.token=hunter2\n");

        assertThatThrownBy(() -> BearerTokens.load(file)).hasMessageStartingWith("tokens file " + file
                + ": key 'ops.token': a token is at least 16 characters").hasMessageNotContaining("hunter2");
    }

    @Test
    void shouldRefuseJobsWithoutAToken() throws Exception {
        assertThatThrownBy(() -> BearerTokens.load(file("ops.token=" + OPS + "\nci.jobs=ci-*\n")))
                .hasMessageEndingWith(": key 'ci.jobs' has no ci.token");
    }

    @Test
    void shouldRefuseAStarInsideAJobIdAndAnEmptyJobId() throws Exception {
        assertThatThrownBy(() -> BearerTokens.load(file("ci.token=" + CI + "\nci.jobs=ci-*-x\n")))
                .hasMessageEndingWith(": key 'ci.jobs': 'ci-*-x': '*' may only end a job id prefix");
        assertThatThrownBy(() -> BearerTokens.load(file("ci.token=" + CI + "\nci.jobs=a,,b\n")))
                .hasMessageEndingWith(": key 'ci.jobs': an empty job id in 'a,,b'");
    }

    @Test
    void shouldRefuseAKeyThatAppearsTwiceAndATokenHeldTwice() throws Exception {
        assertThatThrownBy(() -> BearerTokens.load(file("ops.token=" + OPS + "\nops.token=" + CI + "\n")))
                .hasMessageContaining("key 'ops.token' appears twice");
        assertThatThrownBy(() -> BearerTokens.load(file("ops.token=" + OPS + "\nci.token=" + OPS + "\n")))
                .hasMessageEndingWith(": keys 'ci.token' and 'ops.token' hold the same token");
    }

    @Test
    void shouldRefuseAFileThatIsNotAPropertiesFileOrDefinesNoToken() throws Exception {
        Path broken = file("ops.token=\\u12zz\n");
        assertThatThrownBy(() -> BearerTokens.load(broken))
                .hasMessageStartingWith("tokens file " + broken + " is not a valid properties file: Malformed");
        assertThatThrownBy(() -> BearerTokens.load(file("# nothing yet\n"))).hasMessageEndingWith(
                ": defines no token (expected <principal>.token=<secret>)");
        assertThatThrownBy(() -> BearerTokens.load(dir.resolve("missing.properties")))
                .hasMessageEndingWith("missing.properties: cannot read it");
    }

    private Path file(String content) throws Exception {
        return Files.writeString(Files.createTempFile(dir, "tokens", ".properties"), content);
    }
}
