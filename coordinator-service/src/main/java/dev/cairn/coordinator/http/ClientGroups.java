package dev.cairn.coordinator.http;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Which REST clients count as one for the per-client limits ({@link ConnectionsPerClient}) and warnings
 * ({@link ClientLog}): an IPv4 address is one client; an IPv6 address counts with every address of its /64, the
 * smallest network a site is given, since one host or network may send from any address of its /64 (privacy
 * addresses, a routed /64) and so would not be capped at all by its exact address.
 */
final class ClientGroups {

    /** The length of the IPv6 prefix one client is counted by. */
    static final int IPV6_PREFIX = 64;

    private ClientGroups() {
    }

    /**
     * The client {@code address} counts as: itself for IPv4, its /64 network address (the last 64 bits zero, no scope)
     * for IPv6.
     */
    static InetAddress of(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address;
        }
        byte[] bytes = address.getAddress();
        if (ipv4Mapped(bytes)) {
            return address;
        }
        for (int i = IPV6_PREFIX / 8; i < bytes.length; i++) {
            bytes[i] = 0;
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException("16 bytes are an IPv6 address", impossible);
        }
    }

    /**
     * Whether the bytes are an IPv4 address mapped into IPv6 ({@code ::ffff:a.b.c.d}): one IPv4 client, which its /64
     * would merge with every other IPv4 client.
     */
    private static boolean ipv4Mapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }

    /** How a client group is named in the log: the address, or the network with {@code /64} for IPv6. */
    static String describe(InetAddress group) {
        return group instanceof Inet6Address ? group.getHostAddress() + "/" + IPV6_PREFIX : group.getHostAddress();
    }
}
