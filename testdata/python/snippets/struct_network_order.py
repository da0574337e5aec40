# struct with network byte order and mixed types: packing messages with length prefixes, unpacking streams, '?' booleans, 'x' padding, 'e' half floats.
import io
import struct


def send(stream, payload):
    stream.write(struct.pack("!I", len(payload)) + payload)


def recv_all(stream):
    out = []
    while header := stream.read(4):
        (n,) = struct.unpack("!I", header)
        out.append(stream.read(n))
    return out


s = io.BytesIO()
for msg in [b"hello", b"", b"paddle"]:
    send(s, msg)
s.seek(0)
print(recv_all(s), len(s.getvalue()))
print(struct.pack("!?xH", True, 513), struct.unpack("<?3xi", b"\x01\x00\x00\x00\xff\xff\xff\xff"), struct.pack("<e", 0.1), struct.unpack("<e", b"\x00<"))
print(struct.calcsize("!?xH"), struct.calcsize("<qd?"), struct.pack(">q", -2), struct.unpack(">Q", b"\xff" * 8))
