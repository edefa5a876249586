package dev.cairn.topics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.topics.CairnTopics;
import dev.cairn.topics.KafkaAcls.Principal;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

class KafkaAclsTest {

    private static final CairnTopics TOPICS = new CairnTopics("prod.");

    @Test
    void shouldGiveTheRequesterWritesOnRequestsAndSchemasAndReadsOnTheJournalOnly() {
        List<AclBinding> bindings = KafkaAcls.bindings(Principal.REQUESTER, "User:ops", TOPICS, "coord");

        assertThat(bindings).containsExactlyInAnyOrder(
                allow("prod.requests", AclOperation.WRITE), allow("prod.requests", AclOperation.DESCRIBE),
                allow("prod.schemas", AclOperation.WRITE), allow("prod.schemas", AclOperation.DESCRIBE),
                allow("prod.journal", AclOperation.READ), allow("prod.journal", AclOperation.DESCRIBE));
    }

    @Test
    void shouldPrefixTheCoordinatorsChangelogsAndTransactionalIdsWithItsApplicationId() {
        List<AclBinding> bindings = KafkaAcls.bindings(Principal.COORDINATOR, "User:coordinator", TOPICS, "coord");

        assertThat(bindings).extracting(AclBinding::pattern)
                .contains(new ResourcePattern(ResourceType.TOPIC, "coord-", PatternType.PREFIXED),
                        new ResourcePattern(ResourceType.TRANSACTIONAL_ID, "coord-", PatternType.PREFIXED),
                        new ResourcePattern(ResourceType.GROUP, "coord", PatternType.LITERAL),
                        new ResourcePattern(ResourceType.TOPIC, "prod.", PatternType.PREFIXED));
        assertThat(bindings).extracting(binding -> binding.entry().principal()).containsOnly("User:coordinator");
    }

    @Test
    void shouldGrantEveryPrincipalSomethingAndDenyNothing() {
        assertThat(KafkaAcls.grants(TOPICS, "coord")).extracting(KafkaAcls.Grant::principal)
                .contains(Principal.values());
        assertThat(KafkaAcls.grants(TOPICS, "coord")).flatExtracting(grant -> grant.bindings("User:x"))
                .extracting(binding -> binding.entry().permissionType()).containsOnly(AclPermissionType.ALLOW);
    }

    private static AclBinding allow(String topic, AclOperation operation) {
        return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry("User:ops", "*", operation, AclPermissionType.ALLOW));
    }
}
