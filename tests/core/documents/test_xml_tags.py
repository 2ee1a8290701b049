"""The typed element helpers every document module reads names and prunes elements with."""

from lxml import etree

from app.core.documents.xml_tags import detach, tag_of


def test_an_elements_name_is_its_text_and_a_comment_has_none():
    root = etree.fromstring(b'<a xmlns="urn:x"><!-- a note --><b/><?pi here?></a>')
    assert [tag_of(el) for el in root] == ["", "{urn:x}b", ""]
    assert tag_of(root) == "{urn:x}a"


def test_detach_takes_an_element_out_of_its_parent_and_leaves_a_root_alone():
    root = etree.fromstring(b"<a><b/><c/></a>")
    detach(root[0])
    assert [el.tag for el in root] == ["c"]
    detach(root)   # no parent: nothing to take it out of, and no error
    assert etree.tostring(root) == b"<a><c/></a>"
