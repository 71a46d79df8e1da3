"""A subsection is not its section revisited: "Tree Commands" is no newer "Commands".

editres(1), imported one section an entry (issue 37's man corpus): its "COMMANDS" section
and its "TREE COMMANDS" subsection share the widget-tree words, and one title holds the
other, so a dream made the subsection a TEMPORAL_UPDATE of the section (0.51 alike). A word
right before the shorter title's words narrows it (a compound heading); a stop word ("More
on commands") or the subject's own name ("editres commands") does not, so the same section
curated again later is still one subject revisited.
"""

from __future__ import annotations

from datetime import timedelta

from dream_support import NOW, add

from brv_vc.format.entry import Entry
from brv_vc.services import dream
from brv_vc.services.dream.subject import revisits

COMMANDS = """Get Widget Tree
Allows the user to click on any application that speaks the editres protocol and receive
its widget tree.

Refresh Current Widget Tree
Editres only knows about the widgets that exist at the present time. Many applications
create and destroy widgets on the fly. Selecting this menu item will cause editres to ask
the application to resend its widget tree, thus updating its information to the new state
of the application.

Dump Widget Tree to a File
For documenting applications it is often useful to be able to dump the entire application
widget tree to an ASCII file. When this menu item is selected a popup dialog is activated.
Type the name of the file in this dialog, and either select okay, or type a
carriage-return. Editres will now dump the widget tree to this file.

Show Resource Box
This command will popup a resource box for the current application. This resource box
will allow the user to see exactly which resources can be set for the widget that is
currently selected in the widget tree display."""

TREE_COMMANDS = """The Tree menu contains several commands that allow operations to be performed
on the widget tree.

Select Widget in Client
This menu item allows you to select any widget in the application; editres will then
highlight the corresponding element the widget tree display. Once this menu item is
selected the pointer cursor will again turn to a crosshair, and you must click any pointer
button in the widget you wish to have displayed.

Select All, Unselect All, Invert All
These functions allow the user to select, unselect, or invert all widgets in the widget
tree.

Show Widget Names, Show Class Names, Show Widget IDs, Show Widget Windows
When the tree widget is initially displayed the labels of each widget in the tree
correspond to the widget names. These functions will cause the label of all widgets in the
tree to be changed to show the class name, IDs, or window associated with each widget in
the application."""

# the same section said again a day later, by another agent, shorter
AGAIN = """Get Widget Tree
Lets the user click on any application that speaks the editres protocol and receive its
widget tree.

Refresh Current Widget Tree
Editres only knows about the widgets that exist at the present time. Selecting this menu
item makes editres ask the application to resend its widget tree."""

OTHERS = [  # other pages' sections beside them, as in the corpus
    ("man/xman", "Description", "Xman is a manual page browser. The default size of the "
     "initial xman window is small so that you can leave it running throughout your entire "
     "login session."),
    ("man/xclock", "Options", "-digital causes a 24 hour digital clock to be used; "
     "-update seconds gives the frequency in seconds at which xclock updates its display."),
    ("man/xprop", "Description", "The xprop utility is for displaying window and font "
     "properties in an X server. One window or font is selected using the command line "
     "arguments or possibly in the case of a window, by clicking on the desired window."),
]


def _updates(result: dream.DreamResult) -> list[tuple[str, str]]:
    return [(op["file"], op["newer"]) for op in result.operations
            if op["operation"] == "consolidate" and op["action"] == "TEMPORAL_UPDATE"]


def test_a_subsection_is_not_made_an_update_of_its_section(project) -> None:
    for folder, title, text in OTHERS:
        add(project, folder, title, text)
    commands = add(project, "man/editres", "Commands", COMMANDS)
    tree = add(project, "man/editres", "Tree Commands", TREE_COMMANDS,
               NOW + timedelta(days=1))
    result = dream.dream(project, NOW + timedelta(days=1), force=True)
    assert (commands, tree) not in _updates(result)
    assert (tree, commands) not in _updates(result)


def test_the_section_said_again_under_its_subject_s_name_is_still_an_update(project) -> None:
    for folder, title, text in OTHERS:
        add(project, folder, title, text)
    commands = add(project, "man/editres", "Commands", COMMANDS)
    again = add(project, "man/editres", "Editres commands", AGAIN, NOW + timedelta(days=1))
    result = dream.dream(project, NOW + timedelta(days=1), force=True)
    assert _updates(result) == [(commands, again)]


def test_a_word_before_the_title_narrows_it_unless_a_stop_word_or_the_folder_s() -> None:
    def same(path: str, short: str, long: str) -> bool:
        return revisits((path, Entry(title=short)), (path, Entry(title=long)))

    page = "man/editres/x.md"
    assert not same(page, "COMMANDS", "TREE COMMANDS")
    assert not same(page, "Commands", "Editres tree commands")
    assert same(page, "Commands", "Editres commands")  # the subject's own name
    assert same(page, "Commands", "Notes on commands")
    assert same(page, "Commands", "More on commands")
    assert same(page, "Commands", "Commands (again)")
    assert same("api/retry/x.md", "Retry policy", "Retry policy for uploads")
    assert not same(page, "Commands", "Options")
