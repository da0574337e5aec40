# uuid: deterministic uuid3/uuid5 from names, parsing, fields, and uuid4's version and format (value not printed).
import uuid

u5 = uuid.uuid5(uuid.NAMESPACE_DNS, "paddlepaddle.org")
u3 = uuid.uuid3(uuid.NAMESPACE_URL, "http://example.com")
print(u5, u3, u5.version, u3.version, u5.hex, str(u5).count("-"))
p = uuid.UUID("12345678-1234-5678-1234-567812345678")
print(p, repr(p), p.int, p.bytes[:4], p.fields[0], p == uuid.UUID(int=p.int), uuid.UUID(bytes=p.bytes) == p)
r = uuid.uuid4()
print(r.version, len(str(r)), r.variant == uuid.RFC_4122, r != uuid.uuid4())
