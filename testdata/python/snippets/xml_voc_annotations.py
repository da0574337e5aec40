# Pascal VOC annotations read as 2019 detection scripts read them
# (PaddleDetection's voc_loader, yolov3's reader): ET.parse of a file,
# findall('object'), find('bndbox'), attributes and text; also
# ET.fromstring, iter, a feed-driven XMLParser and a malformed file.
import os
import tempfile
import xml.etree.ElementTree as ET

VOC = """<?xml version="1.0" encoding="utf-8"?>
<annotation verified="no">
\t<folder>VOC2007</folder>
\t<filename>000005.jpg</filename>
\t<size><width>500</width><height>375</height><depth>3</depth></size>
\t<!-- labelled by hand -->
\t<object>
\t\t<name>chair</name><pose>Rear</pose><truncated>0</truncated><difficult>0</difficult>
\t\t<bndbox><xmin>263</xmin><ymin>211</ymin><xmax>324</xmax><ymax>339</ymax></bndbox>
\t</object>
\t<object>
\t\t<name>椅子</name><difficult>1</difficult>
\t\t<bndbox><xmin>165</xmin><ymin>264</ymin><xmax>253</xmax><ymax>372</ymax></bndbox>
\t</object>
\t<note lang="zh" src='web'>A &amp; B &lt;ok&gt; &#20013;<![CDATA[ <raw> ]]></note>
</annotation>
"""
d = tempfile.mkdtemp()
path = os.path.join(d, "000005.xml")
with open(path, "w", encoding="utf-8") as f:
    f.write(VOC)

tree = ET.parse(path)
root = tree.getroot()
print(root.tag, root.attrib, root.find("filename").text, tree.find("size/width").text)
im_w = float(root.find("size").find("width").text)
for i, obj in enumerate(root.findall("object")):
    box = obj.find("bndbox")
    x1, y1, x2, y2 = [float(box.find(k).text) for k in ("xmin", "ymin", "xmax", "ymax")]
    print(i, obj.find("name").text, int(obj.find("difficult").text), x1 / im_w, (x2 - x1) * (y2 - y1))
note = root.find("note")
print(note.attrib, repr(note.text), repr(root.text), repr(root.find("folder").tail))
print([e.tag for e in root.iter()][:8], len(list(root.iter("bndbox"))))
small = ET.fromstring("<a x='1' y=\"2\"><b>t</b>tail<c/></a>")
print(small.tag, sorted(small.attrib.items()), small[0].text, small[0].tail, len(small), ET.tostring(small))
parser = ET.XMLParser()
for piece in ("<r><i n='1'>on", "e</i><i n='2'>two</i", "></r>"):
    parser.feed(piece)
r = parser.close()
print([(i.get("n"), i.text) for i in r])
ns = ET.fromstring('<p:root xmlns:p="http://x/ns"><p:leaf>v</p:leaf></p:root>')
print(ns.tag, ns[0].tag, ns[0].text)
for bad in ("<a><b></a>", "<a>", "just text", "<a></a><b/>"):
    try:
        ET.fromstring(bad)
        print("parsed", bad)
    except ET.ParseError as e:
        print("ParseError", type(e.code).__name__, type(e.position).__name__)
