package dev.cairn.demo.acls;

import dev.cairn.topics.KafkaAcls;
import dev.cairn.topics.KafkaAcls.Principal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The "Kafka ACLs" table of {@code docs/security.md}, read as {@link KafkaAcls.Grant}s: a row is
 * {@code | principal | operations | resources |}; the principal is a {@link Principal#label()}, the operations Kafka's
 * names ({@code Read, Write, DescribeConfigs}), the resources a kind ({@code topic}, {@code topics prefixed},
 * {@code group}, {@code groups prefixed}, {@code transactional ids prefixed}, {@code cluster}...) followed by the
 * names in backticks, then, optionally, the reason in parentheses. Both sides are compared as {@link #facts}: one line
 * per principal, operation and resource, so that rows may group them as they like.
 */
final class AclsTable {

    private static final Pattern NAME = Pattern.compile("`([^`]+)`");
    private static final Map<String, ResourceType> KINDS = Map.of("topic", ResourceType.TOPIC, "group",
            ResourceType.GROUP, "transactional id", ResourceType.TRANSACTIONAL_ID, "cluster", ResourceType.CLUSTER);

    private AclsTable() {
    }

    /**
     * The grants of the table under {@code heading} in {@code markdown}.
     *
     * @throws IllegalArgumentException naming the row when a row cannot be read, or when there is no such table
     */
    static List<KafkaAcls.Grant> read(String markdown, String heading) {
        List<String> lines = markdown.lines().toList();
        int start = lines.indexOf(heading);
        if (start < 0) {
            throw new IllegalArgumentException("no heading '" + heading + "'");
        }
        List<KafkaAcls.Grant> grants = new ArrayList<>();
        boolean header = true;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (!line.startsWith("|") || line.matches("\\|[\\s|:-]+\\|?")) {
                continue;
            }
            if (header) {
                header = false;
                continue;
            }
            grants.add(row(line));
        }
        if (grants.isEmpty()) {
            throw new IllegalArgumentException("no table rows under '" + heading + "'");
        }
        return grants;
    }

    /** One line per principal, operation and resource, e.g. {@code coordinator | Read | TOPIC LITERAL `cairn.acks`}. */
    static TreeSet<String> facts(Collection<KafkaAcls.Grant> grants) {
        TreeSet<String> facts = new TreeSet<>();
        for (KafkaAcls.Grant grant : grants) {
            for (String name : grant.names()) {
                for (AclOperation operation : grant.operations()) {
                    facts.add(grant.principal().label() + " | " + operationName(operation) + " | " + grant.type()
                            + " " + grant.pattern() + " `" + name + "`");
                }
            }
        }
        return facts;
    }

    /** Kafka's name of an operation, as {@code kafka-acls.sh} and the table write it: {@code DescribeConfigs}. */
    static String operationName(AclOperation operation) {
        return Arrays.stream(operation.name().split("_"))
                .map(word -> word.charAt(0) + word.substring(1).toLowerCase(Locale.ROOT))
                .collect(Collectors.joining());
    }

    private static KafkaAcls.Grant row(String line) {
        String[] cells = line.strip().replaceAll("^\\||\\|$", "").split("\\|", -1);
        if (cells.length != 3) {
            throw new IllegalArgumentException("a row has three cells (principal, operations, resources): " + line);
        }
        Principal principal = Arrays.stream(Principal.values()).filter(p -> p.label().equals(cells[0].strip()))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("unknown principal '" + cells[0].strip()
                        + "' (KafkaAcls.Principal's labels: " + Arrays.stream(Principal.values())
                        .map(Principal::label).toList() + "): " + line));
        List<AclOperation> operations = Arrays.stream(cells[1].split(",")).map(String::strip)
                .map(name -> operation(name, line)).toList();
        String resources = withoutReason(cells[2].strip());
        int firstName = resources.indexOf('`');
        String kind = (firstName < 0 ? resources : resources.substring(0, firstName)).strip().toLowerCase(Locale.ROOT);
        PatternType pattern = kind.endsWith(" prefixed") ? PatternType.PREFIXED : PatternType.LITERAL;
        String type = kind.replaceFirst(" prefixed$", "").replaceFirst("s$", "");
        ResourceType resourceType = KINDS.get(type);
        if (resourceType == null) {
            throw new IllegalArgumentException("unknown kind of resource '" + kind + "' (one of " + KINDS.keySet()
                    + ", in the plural or not, then ' prefixed' for a prefix): " + line);
        }
        List<String> names = new ArrayList<>();
        Matcher matcher = NAME.matcher(resources);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        if (resourceType == ResourceType.CLUSTER && names.isEmpty()) {
            names.add("kafka-cluster");
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no resource name in backticks: " + line);
        }
        return new KafkaAcls.Grant(principal, operations, resourceType, pattern, names);
    }

    /** The resources cell up to its reason: the first {@code " ("} outside backticks. */
    private static String withoutReason(String cell) {
        boolean quoted = false;
        for (int i = 0; i < cell.length(); i++) {
            char c = cell.charAt(i);
            if (c == '`') {
                quoted = !quoted;
            } else if (!quoted && c == '(' && i > 0 && cell.charAt(i - 1) == ' ') {
                return cell.substring(0, i).strip();
            }
        }
        return cell;
    }

    private static AclOperation operation(String name, String line) {
        try {
            return AclOperation.valueOf(name.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown operation '" + name + "' (Kafka's names: Read, Write, "
                    + "Create, Delete, Describe, DescribeConfigs, Alter...): " + line, e);
        }
    }
}
