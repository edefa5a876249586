package dev.cairn.demo.acls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.topics.CairnTopics;
import dev.cairn.topics.KafkaAcls;
import dev.cairn.topics.KafkaAcls.Principal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * The "Kafka ACLs" table of {@code docs/security.md} says what {@link KafkaAcls} grants, which {@code KafkaAclsIT}
 * proves on a broker with an authorizer: a row that grants more or less than {@link KafkaAcls#grants} fails here,
 * naming each principal, operation and resource on one side only. To add a grant, add it to both.
 */
class KafkaAclsTableTest {

    static final Path SECURITY = Path.of("..").toAbsolutePath().normalize().resolve("docs/security.md");
    static final String HEADING = "## Kafka ACLs";

    @Test
    void shouldListExactlyWhatKafkaAclsGrantsWhenTheTableIsUpToDate() throws IOException {
        TreeSet<String> documented = AclsTable.facts(AclsTable.read(Files.readString(SECURITY), HEADING));
        TreeSet<String> granted = AclsTable.facts(KafkaAcls.grants(CairnTopics.defaults(), "<app>"));

        TreeSet<String> onlyDocumented = new TreeSet<>(documented);
        onlyDocumented.removeAll(granted);
        TreeSet<String> onlyGranted = new TreeSet<>(granted);
        onlyGranted.removeAll(documented);
        assertThat(onlyDocumented).as("in the table of %s but not granted by KafkaAcls (cairn-topics); change both "
                + "together", SECURITY).isEmpty();
        assertThat(onlyGranted).as("granted by KafkaAcls (cairn-topics) but not in the table of %s; change both "
                + "together", SECURITY).isEmpty();
    }

    @Test
    void shouldNameTheTestThatProvesTheTable() throws IOException {
        String security = Files.readString(SECURITY);

        assertThat(security).contains("KafkaAclsIT").doesNotContain("not exercised by the test suite");
    }

    @Test
    void shouldReadEveryKindOfResourceAndLeaveTheReasonOut() {
        String markdown = """
                ## Kafka ACLs

                | principal | operations | resources |
                | --- | --- | --- |
                | auditors | Read, DescribeConfigs | topics `a.x`, `a.y` (why, see `a.z` and [b](b.md#c)) |
                | coordinator | Write | transactional ids prefixed `app-` |
                | sidecars of a job | Read | groups prefixed `g-` |
                | auditors | IdempotentWrite | cluster (for producer ids) |

                ## Next
                | not | a | row |
                """;

        List<KafkaAcls.Grant> grants = AclsTable.read(markdown, HEADING);

        assertThat(grants).containsExactly(
                new KafkaAcls.Grant(Principal.AUDITOR, List.of(AclOperation.READ, AclOperation.DESCRIBE_CONFIGS),
                        ResourceType.TOPIC, PatternType.LITERAL, List.of("a.x", "a.y")),
                new KafkaAcls.Grant(Principal.COORDINATOR, List.of(AclOperation.WRITE),
                        ResourceType.TRANSACTIONAL_ID, PatternType.PREFIXED, List.of("app-")),
                new KafkaAcls.Grant(Principal.SIDECAR, List.of(AclOperation.READ), ResourceType.GROUP,
                        PatternType.PREFIXED, List.of("g-")),
                new KafkaAcls.Grant(Principal.AUDITOR, List.of(AclOperation.IDEMPOTENT_WRITE), ResourceType.CLUSTER,
                        PatternType.LITERAL, List.of("kafka-cluster")));
        assertThat(AclsTable.facts(grants)).contains("auditors | DescribeConfigs | TOPIC LITERAL `a.y`");
    }

    @Test
    void shouldNameTheRowItCannotRead() {
        String markdown = """
                ## Kafka ACLs

                | principal | operations | resources |
                | --- | --- | --- |
                | operators | Read | topic `cairn.journal` |
                """;

        assertThatThrownBy(() -> AclsTable.read(markdown, HEADING)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown principal 'operators'")
                .hasMessageContaining("| operators | Read | topic `cairn.journal` |");
    }
}
