package dev.cairn.coordinator.rest.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The "Routes" table of {@code docs/rest.md} is generated from {@link Route}; this fails when it is out of date and
 * says how to regenerate it.
 */
class RestReferenceTest {

    static final Path REFERENCE = Path.of("..").toAbsolutePath().normalize().resolve("docs/rest.md");
    static final String REGENERATE = "mvn -B -o -q -pl coordinator-service -am test -Dtest=RestReferenceTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dcairn.write-rest-reference=true";
    /** The table: from its header row to the first line that is not a row. */
    private static final Pattern TABLE = Pattern.compile("(?m)^\\| route \\| what \\| Flink's REST path "
            + "\\|\\n(\\|.*\\n)*");

    @Test
    void shouldListEveryRouteWhenTheRestReferenceIsUpToDate() throws IOException {
        String written = Files.readString(REFERENCE);
        Matcher table = TABLE.matcher(written);
        assertThat(table.find()).as("%s has no table of routes", REFERENCE).isTrue();
        String generated = written.substring(0, table.start()) + table() + written.substring(table.end());
        if (Boolean.getBoolean("cairn.write-rest-reference")) {
            Files.writeString(REFERENCE, generated);
        }

        assertThat(Files.readString(REFERENCE)).as("the routes of %s are out of date; regenerate them with: %s",
                REFERENCE, REGENERATE).isEqualTo(generated);
    }

    private static String table() {
        StringBuilder table = new StringBuilder("| route | what | Flink's REST path |\n| --- | --- | --- |\n");
        for (Route route : Route.values()) {
            if (route.summary == null) {
                continue;
            }
            String name = "`" + route.method() + " " + route.path() + "`";
            String linked = route.section == null ? name : "[" + name + "](#" + anchor(route.section) + ")";
            table.append("| ").append(linked).append(" | ").append(route.summary).append(" | ")
                    .append(route.flink).append(" |\n");
        }
        return table.toString();
    }

    /** GitHub's anchor of a heading. */
    private static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
    }
}
