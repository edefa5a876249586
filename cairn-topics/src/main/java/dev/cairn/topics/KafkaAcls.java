package dev.cairn.topics;

import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;

import dev.cairn.events.topics.CairnTopics;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The Kafka ACLs each of Cairn's principals needs on a cluster with an authorizer, in one place: the "Kafka ACLs"
 * table of {@code docs/security.md} is checked against {@link #grants} by a test (a row missing here, or here and
 * not there, fails it), and {@code KafkaAclsIT} grants exactly these on a broker with {@code StandardAuthorizer} and
 * runs a job with them. To change what a principal needs, change it here and in the table together.
 */
public final class KafkaAcls {

    /** Who needs the grants, as the table's first column names them. */
    public enum Principal {
        /** Every coordinator instance (one Kafka Streams application). */
        COORDINATOR("coordinator"),
        /** The sidecars of one job (the table's grants do not tell jobs apart; signatures do). */
        SIDECAR("sidecars of a job"),
        /** Whoever sends requests: users of the CLI, and the coordinators whose REST API publishes them. */
        REQUESTER("users, the CLI, the REST API's instances"),
        /** Readers of the journal, such as {@code cairn audit}. */
        AUDITOR("auditors");

        private final String label;

        Principal(String label) {
            this.label = label;
        }

        /** The principal's name in the table. */
        public String label() {
            return label;
        }
    }

    /**
     * One row of the table: {@code operations} allowed to {@code principal} on the resources of one type named (or
     * prefixed, with {@link PatternType#PREFIXED}) by {@code names}, from any host.
     */
    public record Grant(Principal principal, List<AclOperation> operations, ResourceType type, PatternType pattern,
            List<String> names) {

        public Grant {
            Objects.requireNonNull(principal, "principal");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(pattern, "pattern");
            operations = List.copyOf(operations);
            names = List.copyOf(names);
        }

        /** The ACL bindings of this row for the Kafka principal {@code kafkaPrincipal} (e.g. {@code User:ops}). */
        public List<AclBinding> bindings(String kafkaPrincipal) {
            List<AclBinding> bindings = new ArrayList<>();
            for (String name : names) {
                for (AclOperation operation : operations) {
                    bindings.add(new AclBinding(new ResourcePattern(type, name, pattern),
                            new AccessControlEntry(kafkaPrincipal, "*", operation, AclPermissionType.ALLOW)));
                }
            }
            return bindings;
        }
    }

    private KafkaAcls() {
    }

    /**
     * Every grant, in the table's order.
     *
     * @param topics Cairn's topic names
     * @param applicationId the coordinator's application id: its group, and the prefix of its changelog topics and
     *     transactional ids
     */
    public static List<Grant> grants(CairnTopics topics, String applicationId) {
        String app = applicationId + "-";
        return List.of(
                topics(Principal.COORDINATOR, List.of(READ, DESCRIBE), topics.requests(), topics.acks()),
                topics(Principal.COORDINATOR, List.of(WRITE, DESCRIBE), topics.control(), topics.completed(),
                        topics.dlq()),
                topics(Principal.COORDINATOR, List.of(READ, WRITE, DESCRIBE), topics.journal(), topics.snapshots()),
                topics(Principal.COORDINATOR, List.of(READ, WRITE, DESCRIBE), topics.schemas()),
                prefixed(Principal.COORDINATOR, List.of(DESCRIBE, DESCRIBE_CONFIGS), ResourceType.TOPIC,
                        topics.prefix()),
                prefixed(Principal.COORDINATOR, List.of(CREATE), ResourceType.TOPIC, topics.prefix()),
                prefixed(Principal.COORDINATOR, List.of(CREATE, READ, WRITE, DELETE, DESCRIBE, DESCRIBE_CONFIGS),
                        ResourceType.TOPIC, app),
                new Grant(Principal.COORDINATOR, List.of(READ, DESCRIBE), ResourceType.GROUP, PatternType.LITERAL,
                        List.of(applicationId)),
                prefixed(Principal.COORDINATOR, List.of(WRITE, DESCRIBE), ResourceType.TRANSACTIONAL_ID, app),
                topics(Principal.SIDECAR, List.of(WRITE, DESCRIBE), topics.acks()),
                topics(Principal.SIDECAR, List.of(READ, DESCRIBE), topics.control(), topics.completed()),
                topics(Principal.SIDECAR, List.of(READ, WRITE, DESCRIBE), topics.schemas()),
                topics(Principal.REQUESTER, List.of(WRITE, DESCRIBE), topics.requests(), topics.schemas()),
                topics(Principal.REQUESTER, List.of(READ, DESCRIBE), topics.journal()),
                topics(Principal.AUDITOR, List.of(READ, DESCRIBE), topics.journal(), topics.schemas()));
    }

    /** The ACL bindings that give the Kafka principal {@code kafkaPrincipal} what {@code who} needs. */
    public static List<AclBinding> bindings(Principal who, String kafkaPrincipal, CairnTopics topics,
            String applicationId) {
        return grants(topics, applicationId).stream().filter(grant -> grant.principal() == who)
                .flatMap(grant -> grant.bindings(kafkaPrincipal).stream()).toList();
    }

    private static Grant topics(Principal principal, List<AclOperation> operations, String... names) {
        return new Grant(principal, operations, ResourceType.TOPIC, PatternType.LITERAL, List.of(names));
    }

    private static Grant prefixed(Principal principal, List<AclOperation> operations, ResourceType type,
            String prefix) {
        return new Grant(principal, operations, type, PatternType.PREFIXED, List.of(prefix));
    }
}
